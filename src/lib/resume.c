/* resume.c - finding where a file may be cut into pieces that separate
 * parsers read (hg_resume_find; herald.h).  The parser itself says whether
 * a candidate is one (hg_parser_resumes_at): this scan only has to be
 * cheap and never miss the common case, a game after a blank line. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#if defined(__SSE2__) && !defined(HG_NO_SIMD)
#define SCAN_SSE2 1
#include <emmintrin.h>
#endif

#include "internal.h"

#define SCAN_BLOCK (64 * 1024)	/* bytes read at a time */
#define SCAN_BACK 4096		/* bytes before at_least scanned byte by byte */

/* The line feeds among the n bytes at p. */
static uint64_t count_lf(const unsigned char *p, size_t n)
{
	uint64_t lf = 0;
	size_t i = 0;
#ifdef SCAN_SSE2
	const __m128i nl = _mm_set1_epi8('\n');
	for (; i + 16 <= n; i += 16) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		lf += (uint64_t)__builtin_popcount((unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, nl)));
	}
#endif
	for (; i < n; i++)
		lf += p[i] == '\n';
	return lf;
}

/* pread() until n bytes or the end of the file: the bytes read, or -1. */
static ssize_t read_at(int fd, unsigned char *buf, size_t n, uint64_t off)
{
	size_t got = 0;
	while (got < n) {
		ssize_t r = pread(fd, buf + got, n - got, (off_t)(off + got));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int hg_resume_find(int fd, const hg_resume *from, uint64_t at_least, hg_resume *out)
{
	unsigned char buf[SCAN_BLOCK];
	uint64_t off = from->offset, lines = 0;
	/* Up to a little before at_least, only the line feeds are counted. */
	uint64_t scan_from = at_least > off + SCAN_BACK ? at_least - SCAN_BACK : off;
	while (off < scan_from) {
		uint64_t want = scan_from - off;
		ssize_t got = read_at(fd, buf, want < SCAN_BLOCK ? (size_t)want : SCAN_BLOCK, off);
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		lines += count_lf(buf, (size_t)got);
		off += (uint64_t)got;
	}
	/* Then byte by byte: a '[' that begins a line, with only blanks and
	 * at least two line feeds (a blank line) since the last other byte,
	 * which is the previous game's last.  Starting here, with no such
	 * byte seen yet, can only miss a candidate after SCAN_BACK blanks. */
	int have_last = 0, prev = -1;
	uint64_t last = 0, lf_since = 0;
	for (;;) {
		ssize_t got = read_at(fd, buf, SCAN_BLOCK, off);
		if (got < 0)
			return -1;
		if (got == 0)
			return 0;
		for (ssize_t i = 0; i < got; i++, off++) {
			unsigned char b = buf[i];
			if (b == '\n') {
				lines++;
				lf_since++;
			} else if (b == ' ' || b == '\t' || b == '\r') {
				/* a blank */
			} else {
				if (b == '[' && prev == '\n' && have_last && lf_since >= 2 &&
				    off >= at_least) {
					out->offset = off;
					out->line = from->line + (unsigned)lines;
					/* counted from the byte after the one after
					 * the last: see hg_lexer_resumes_at() */
					out->game_bytes = off - last - 2;
					return 1;
				}
				have_last = 1;
				last = off;
				lf_since = 0;
			}
			prev = b;
		}
	}
}

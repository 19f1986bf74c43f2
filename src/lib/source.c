/* source.c - the lexer's source (in the manner of Lua's lzio.c): the read
 * window over a memory block or a stream, UTF-8 decoding, and the line and
 * game byte counts against their limits.  next() (lexer-impl.h) moves on by
 * one character; these are its slower steps.  Bytes that are not UTF-8 and
 * NUL bytes are reported where they stand and then act as white space
 * (outside comments and strings) or as U+FFFD (inside them). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lexer-impl.h"

/* ------------------------------------------------------------------------
 * Reading characters
 * ------------------------------------------------------------------------ */

/* Keeps at least four bytes (one whole code point) ahead when the stream
 * still has them. */
static void refill(hg_lexer *lx)
{
	while (!lx->at_eof && lx->end - lx->p < 4) {
		size_t left = (size_t)(lx->end - lx->p);
		lx->base_off += (uint64_t)(lx->p - lx->win);
		memmove(lx->win, lx->p, left);
		size_t n = fread(lx->win + left, 1, WINDOW - left, lx->fp);
		lx->p = lx->win;
		lx->end = lx->win + left + n;
		if (n == 0) {
			lx->at_eof = 1;
			if (ferror(lx->fp)) {
				lx->ioerr = 1;
				lx->err = errno;
			}
		}
	}
}

static void bad_char(hg_lexer *lx, int kind, unsigned byte)
{
	if (lx->bad_run != kind) {
		if (kind == BAD_NUL)
			hg_lexer_error(lx, here(lx), "hgn.nul-byte", "NUL byte in the text");
		else
			hg_lexer_error(lx, here(lx), "hgn.invalid-utf8",
				  "invalid UTF-8 (byte 0x%02x)", byte);
	}
	lx->bad_run = kind;
	lx->c = BADBYTE;
	lx->clen = 1;
}

/* A byte that is not UTF-8 but a letter or sign of Latin-1 text (or the
 * quotes, dashes and euro of Windows-1252), followed by ASCII: how an
 * accent of a file from a Spanish system looks, unlike binary junk (nor
 * the end of a broken UTF-8 sequence). */
static int latin1_like(const hg_lexer *lx, unsigned b)
{
	if (lx->seen_utf8 || lx->bad_run != BAD_NONE || lx->end - lx->p < 2 ||
	    lx->p[1] >= 0x80)
		return 0;
	return b >= 0xA0 || b == 0x80 || (b >= 0x91 && b <= 0x97);
}

/* The code point of a byte of Windows-1252 (Latin-1 but for 0x80-0x9F). */
static long cp1252(unsigned b)
{
	static const unsigned short c1[32] = {
		0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
		0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
		0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
		0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
	};
	return b >= 0x80 && b < 0xA0 ? (long)c1[b - 0x80] : (long)b;
}

/* The game is Latin-1 or Windows-1252: one error with the conversion
 * that mends it, instead of one error for every accent; the rest of the
 * game is read as Windows-1252. */
static void latin1_char(hg_lexer *lx, unsigned b)
{
	if (!lx->latin1) {
		lx->latin1 = 1;
		hg_diag *dg = hg_lexer_error(lx, here(lx), "hgn.invalid-utf8",
					"invalid UTF-8 (byte 0x%02x): the input looks like Latin-1 "
					"(or Windows-1252)", b);
		if (dg)
			hg_diag_note(dg, "HGN is UTF-8; convert the file first, as with "
				     "'iconv -f LATIN1 -t UTF-8' (or -f WINDOWS-1252)");
	}
	lx->c = cp1252(b);
	lx->clen = 1;
	lx->bad_run = BAD_NONE;
}

void hg_source_decode(hg_lexer *lx)
{
	if (lx->end - lx->p < 4 && !lx->at_eof)
		refill(lx);
	if (lx->p >= lx->end) {
		lx->c = EOZ;
		lx->clen = 0;
		lx->bad_run = BAD_NONE;
		return;
	}
	unsigned b = lx->p[0];
	if (b >= 1 && b < 0x80) {
		lx->c = (long)b;
		lx->clen = 1;
		lx->bad_run = BAD_NONE;
		return;
	}
	if (b == 0) {
		bad_char(lx, BAD_NUL, 0);
		return;
	}
	uint32_t cp;
	int n = hg_utf8_decode((const char *)lx->p, (size_t)(lx->end - lx->p), &cp);
	if (n < 0) {
		if (lx->latin1 || latin1_like(lx, b))
			latin1_char(lx, b);
		else
			bad_char(lx, BAD_UTF8, b);
		return;
	}
	lx->seen_utf8 = 1;
	lx->c = (long)cp;
	lx->clen = n;
	lx->bad_run = BAD_NONE;
}

void hg_source_account(hg_lexer *lx)
{
	lx->line_bytes += (size_t)lx->clen;
	lx->game_bytes += (size_t)lx->clen;
	if (lx->skipping)
		return;
	if (lx->line_bytes > lx->lim.line && lx->c != '\n' && !lx->line_reported) {
		lx->line_reported = 1;
		hg_lexer_error(lx, here(lx), "hgn.line-too-long",
			  "line longer than %zu bytes", lx->lim.line);
	}
	if (lx->game_bytes > lx->lim.game && !lx->game_over) {
		lx->game_over = 1;
		hg_diag *dg = hg_lexer_error(lx, here(lx), "hgn.game-too-long",
					"game longer than %zu bytes; skipping to the next game",
					lx->lim.game);
		if (dg)
			hg_diag_note(dg, "the next game starts at a line beginning with '['");
	}
}


/* A UTF-16 or UTF-32 file (a byte order mark, or the NUL bytes of ASCII
 * text in such a file) would give an error for every other byte: one error
 * says what it is, and the input is taken as ending there. */
static int wrong_encoding(hg_lexer *lx)
{
	if (lx->end - lx->p < 4 && !lx->at_eof)
		refill(lx);
	size_t n = (size_t)(lx->end - lx->p);
	const unsigned char *b = lx->p;
	const char *what = NULL;
	if (n >= 4 && ((b[0] == 0xFF && b[1] == 0xFE && b[2] == 0 && b[3] == 0) ||
		       (b[0] == 0 && b[1] == 0 && b[2] == 0xFE && b[3] == 0xFF)))
		what = _("UTF-32 (it begins with a UTF-32 byte order mark)");
	else if (n >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF)))
		what = _("UTF-16 (it begins with a UTF-16 byte order mark)");
	else if (n >= 4 && b[0] && !b[1] && b[2] && !b[3] && b[0] < 0x80 && b[2] < 0x80)
		what = _("UTF-16 (every other byte is a NUL)");
	if (!what)
		return 0;
	hg_diag *dg = hg_lexer_error(lx, here(lx), "hgn.invalid-utf8",
				"invalid UTF-8 (byte 0x%02x): the input is %s", b[0], what);
	if (dg)
		hg_diag_note(dg, "HGN is UTF-8; convert the file first, as with 'iconv -f UTF-16 -t UTF-8'");
	/* Nothing more is read. */
	lx->p = lx->end;
	lx->at_eof = 1;
	return 1;
}

void hg_source_start(hg_lexer *lx)
{
	lx->started = 1;
	if (lx->resumed) {	/* a byte order mark only begins the file */
		hg_source_decode(lx);
		hg_source_account(lx);
		return;
	}
	if (wrong_encoding(lx)) {
		lx->c = EOZ;
		lx->clen = 0;
		return;
	}
	hg_source_decode(lx);
	if (lx->c == 0xFEFF) {	/* a byte order mark: not a character */
		lx->p += lx->clen;
		hg_source_decode(lx);
	}
	hg_source_account(lx);
}

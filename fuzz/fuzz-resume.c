/* fuzz-resume.c - libFuzzer target: reading a file from a resume point
 * (herald check -j N's pieces).  Wherever a parser that read the input
 * from its start says it would resume at a candidate of hg_resume_find(),
 * a parser opened there must read exactly the same games and diagnostics
 * from there on. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "herald.h"
#include "lexer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_CANDS 64

/* One game (or the end) as a string: where it is, what it says, and the
 * diagnostics that came with it. */
static char *dump_next(hg_parser *p, int *rc)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_game_record *g = NULL;
	*rc = hg_parser_next(p, &g, &d);
	hg_buf b;
	hg_buf_init(&b);
	if (g) {
		hg_buf_printf(&b, "game at %u:%u\n", g->pos.line, g->pos.col);
		hg_write_hgn(g, &b);
		hg_record_free(g);
	} else {
		hg_buf_printf(&b, "end %d\n", *rc);
	}
	for (size_t i = 0; i < d.n; i++)
		hg_diag_format(&d.v[i], &b, 0);
	hg_diags_free(&d);
	return hg_buf_steal(&b);
}

/* Small limits, from the input's first byte: the bytes before a game count
 * against its size, and a game cut at the limit resumes nowhere. */
static void set_limits(hg_parser *p, unsigned byte)
{
	hg_limits lim;
	hg_limits_default(&lim);
	if (byte & 1) {
		lim.game = 64 + 16 * (byte >> 1);
		lim.errors = 10;
		lim.line = 120;
	}
	hg_parser_set_limits(p, &lim);
}

static char path[] = "/tmp/fuzz-resume-XXXXXX";
static int fd = -1;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fd < 0) {
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		unlink(path);	/* reopened through /proc below */
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	char name[64];
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);

	hg_resume cands[MAX_CANDS], from = { 0, 1, 0 };
	size_t ncands = 0;
	while (ncands < MAX_CANDS && hg_resume_find(fd, &from, from.offset + 1, &cands[ncands]) == 1)
		from = cands[ncands++];

	/* the whole reading, and after which game it resumes at each */
	hg_diags opened;
	hg_diags_init(&opened);
	hg_parser *p = hg_parser_open_file(name, &opened);
	if (!p)
		abort();
	hg_diags_free(&opened);
	unsigned byte = size ? data[0] : 0;
	set_limits(p, byte);
	char **games = NULL;
	size_t n = 0, after[MAX_CANDS];
	for (size_t c = 0; c < ncands; c++)
		after[c] = SIZE_MAX;
	int rc;
	do {
		games = realloc(games, (n + 1) * sizeof *games);
		games[n++] = dump_next(p, &rc);
		for (size_t c = 0; rc == 1 && c < ncands; c++)
			if (hg_parser_resumes_at(p, &cands[c])) {
				if (after[c] != SIZE_MAX)
					abort();	/* at one place only */
				after[c] = n;
			}
	} while (rc == 1);
	hg_parser_close(p);

	for (size_t c = 0; c < ncands; c++) {
		if (after[c] == SIZE_MAX)
			continue;
		hg_diags d;
		hg_diags_init(&d);
		p = hg_parser_open_file_at(name, &cands[c], &d);
		if (!p)
			abort();
		set_limits(p, byte);
		size_t i = after[c];
		do {
			char *one = dump_next(p, &rc);
			if (i >= n || strcmp(one, games[i]) != 0) {
				fprintf(stderr, "resumed at offset %llu, line %u: game %zu differs:\n%s---\n%s",
					(unsigned long long)cands[c].offset, cands[c].line, i,
					i < n ? games[i] : "(none)", one);
				abort();
			}
			free(one);
			i++;
		} while (rc == 1);
		if (i != n)
			abort();
		hg_parser_close(p);
		hg_diags_free(&d);
	}
	for (size_t i = 0; i < n; i++)
		free(games[i]);
	free(games);
	return 0;
}

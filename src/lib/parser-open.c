/* parser-open.c - opening a parser (parser.c) on memory, a stream or a
 * file, at its start or at a resume point (herald.h, hg_resume), its
 * settings, and closing it. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parser-impl.h"

/* The parser of lx, or NULL (lx closed) when there is no memory for it
 * (or lx is NULL: there was none for the lexer). */
static hg_parser *parser_new(hg_lexer *lx)
{
	hg_parser *p = lx ? hg_open_calloc(1, sizeof *p) : NULL;
	if (!p) {
		hg_lexer_close(lx);
		return NULL;
	}
	p->lx = lx;
	p->name = hg_lexer_name(lx);
	p->lim = hg_lexer_limits(lx);
	hg_tagset_init(&p->tagset);
	hg_diags_init(&p->held);
	hg_diags_init(&p->sink);
	return p;
}

hg_parser *hg_parser_open_mem(const char *name, const char *text, size_t len)
{
	return parser_new(hg_lexer_open_mem(name, text, len));
}

/* Positions fp (NULL: an open that failed) at offset: 0, or -1 after an
 * hgn.io-error named `name` (fp closed when `owned`). */
static int seek_to(const char *name, FILE *fp, int owned, uint64_t offset, hg_diags *d)
{
	if (fp && fseeko(fp, (off_t)offset, SEEK_SET) == 0)
		return 0;
	hg_pos pos = { name, 0, 0 };
	hg_diag_add(d, HG_ERROR, pos, "hgn.io-error", "cannot open the file: %s", strerror(errno));
	if (fp && owned)
		fclose(fp);
	return -1;
}

/* path opened for reading at byte `offset`, or NULL (diagnosed in d). */
static FILE *open_at(const char *path, uint64_t offset, hg_diags *d)
{
	FILE *fp = fopen(path, "rb");
	if (fp && offset == 0)
		return fp;
	return seek_to(path, fp, 1, offset, d) == 0 ? fp : NULL;
}

hg_parser *hg_parser_open_stream(const char *name, FILE *fp, int owned)
{
	return parser_new(hg_lexer_open_stream(name, fp, owned));
}

/* p, or hg.out-of-memory in d for the parser of `name` there was no
 * memory for. */
static hg_parser *opened(hg_parser *p, const char *name, hg_diags *d)
{
	if (!p) {
		hg_pos pos = { name, 0, 0 };
		hg_alloc_report(d, pos);
	}
	return p;
}

hg_parser *hg_parser_open_file(const char *path, hg_diags *d)
{
	if (strcmp(path, "-") == 0)
		return opened(parser_new(hg_lexer_open_stream(path, stdin, 0)), path, d);
	FILE *fp = open_at(path, 0, d);
	return fp ? opened(parser_new(hg_lexer_open_stream(path, fp, 1)), path, d) : NULL;
}

/* A parser of fp, positioned at `at`. */
static hg_parser *parser_at(const char *name, FILE *fp, int owned, const hg_resume *at)
{
	hg_parser *p = parser_new(hg_lexer_open_stream_at(name, fp, owned, at));
	/* The game's accounting has begun: the lexer counts from at->game_bytes. */
	if (p) {
		p->begun = 1;
		p->off_after = at->offset;
	}
	return p;
}

hg_parser *hg_parser_open_file_at(const char *path, const hg_resume *at, hg_diags *d)
{
	FILE *fp = open_at(path, at->offset, d);
	return fp ? opened(parser_at(path, fp, 1, at), path, d) : NULL;
}

hg_parser *hg_parser_open_stream_at(const char *name, FILE *fp, int owned,
				    const hg_resume *at, hg_diags *d)
{
	if (seek_to(name, fp, owned, at->offset, d) != 0)
		return NULL;
	return opened(parser_at(name, fp, owned, at), name, d);
}

/* At a game's '[', the parser carries nothing of the game before: no
 * comments or diagnostics read ahead, no pending error (last_end is
 * replaced at the '[' before any use). */
int hg_parser_resumes_at(const hg_parser *p, const hg_resume *at)
{
	return p->started && p->begun && !p->glued && !p->stop && p->pending.n == 0 &&
	       p->held.n == 0 && p->t && hg_lexer_resumes_at(p->lx, p->t, at);
}

uint64_t hg_parser_game_offset(const hg_parser *p)
{
	return p->game_off;
}

uint64_t hg_parser_offset(const hg_parser *p)
{
	return hg_lexer_offset(p->lx);
}

void hg_parser_set_plain_ssse3(hg_parser *p, int on)
{
	hg_lexer_set_plain_ssse3(p->lx, on);
}

void hg_parser_set_careful_only(hg_parser *p, int on)
{
	hg_lexer_set_careful_only(p->lx, on);
}

void hg_parser_set_limits(hg_parser *p, const hg_limits *l)
{
	hg_lexer_set_limits(p->lx, l);
}

void hg_parser_close(hg_parser *p)
{
	if (!p)
		return;
	hg_parser_clear_game(p);
	hg_line_free(&p->pending);
	hg_diags_free(&p->held);
	hg_diags_free(&p->sink);
	hg_atok_list_free(&p->toks);
	hg_tagset_free(&p->tagset);
	hg_buf_free(&p->tok_text);
	free(p->open);
	hg_lexer_close(p->lx);
	free(p);
}

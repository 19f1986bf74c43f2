/* fuzz-hgn.c - libFuzzer target: the HGN parser and writer on any bytes.
 * Every game that parses without error must write canonically, and the
 * canonical text must parse without error and write identically again.
 * The parser reading through the lexer's fast scanner (batches of plain
 * ASCII tokens, runs of them classed with SSSE3 or with SSE2 only) must
 * read exactly what it reads through the clear path alone: the same
 * records, token positions and diagnostics, also under limits small
 * enough for short inputs to cross every one of them. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "herald.h"
#include "lexer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_idempotent(const hg_game_record *g)
{
	hg_buf once, twice;
	hg_buf_init(&once);
	hg_buf_init(&twice);
	hg_write_hgn(g, &once);
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem("canonical.hgn", once.data, once.len);
	hg_game_record *again;
	if (hg_parser_next(p, &again, &d) != 1 || d.nerrors) {
		fprintf(stderr, "canonical text does not parse:\n%s", once.data);
		abort();
	}
	hg_write_hgn(again, &twice);
	if (once.len != twice.len || memcmp(once.data, twice.data, once.len)) {
		fprintf(stderr, "fmt is not idempotent:\n%s---\n%s", once.data, twice.data);
		abort();
	}
	hg_record_free(again);
	hg_parser_close(p);
	hg_diags_free(&d);
	hg_buf_free(&once);
	hg_buf_free(&twice);
}

static void dump_line(const hg_line *l, hg_buf *out)
{
	for (size_t i = 0; i < l->n; i++) {
		const hg_node *n = &l->nodes[i];
		hg_buf_printf(out, "%d %u:%u", (int)n->kind, n->pos.line, n->pos.col);
		if (n->kind == HG_NODE_ACTION) {
			const hg_action_text *t = &n->action;
			hg_buf_printf(out, " %s@%u:%u %u:%u [%s] %d", t->seat, t->seat_pos.line,
				      t->seat_pos.col, t->pos.line, t->pos.col, t->text, t->ascii);
			for (size_t k = 0; k < t->ntoks; k++)
				hg_buf_printf(out, " %d'%s'%u:%u+%zu", (int)t->toks[k].kind,
					      t->toks[k].text, t->toks[k].pos.line,
					      t->toks[k].pos.col, t->toks[k].off);
		} else if (n->kind == HG_NODE_VARIATION) {
			hg_buf_puts(out, " (\n");
			dump_line(n->variation, out);
			hg_buf_puts(out, ")");
		}
		hg_buf_puts(out, "\n");
	}
}

/* Everything parsed from the input, by one way of reading: careful 1 the
 * clear path alone, 0 with the fast scanner, 2 with the fast scanner
 * classing with SSE2 only. */
static void dump_all(const uint8_t *data, size_t size, int careful, const hg_limits *lim,
		     hg_buf *out)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem("fuzz.hgn", (const char *)data, size);
	if (lim)
		hg_parser_set_limits(p, lim);
	hg_parser_set_careful_only(p, careful == 1);
	hg_parser_set_plain_ssse3(p, careful != 2);
	hg_game_record *g;
	while (hg_parser_next(p, &g, &d) == 1) {
		hg_write_hgn(g, out);
		dump_line(&g->moves, out);
		hg_record_free(g);
	}
	hg_parser_close(p);
	for (size_t i = 0; i < d.n; i++)
		hg_diag_format(&d.v[i], out, 0);
	hg_diags_free(&d);
}

static void check_paths_agree(const uint8_t *data, size_t size, const hg_limits *lim)
{
	hg_buf careful;
	hg_buf_init(&careful);
	dump_all(data, size, 1, lim, &careful);
	for (int mode = 0; mode <= 2; mode += 2) {
		hg_buf plain;
		hg_buf_init(&plain);
		dump_all(data, size, mode, lim, &plain);
		if (plain.len != careful.len ||
		    (plain.len && memcmp(plain.data, careful.data, plain.len))) {
			fprintf(stderr, "the plain path%s reads otherwise than the careful one:\n%s---\n%s",
				mode ? " (SSE2 only)" : "", plain.data ? plain.data : "",
				careful.data ? careful.data : "");
			abort();
		}
		hg_buf_free(&plain);
	}
	hg_buf_free(&careful);
}

/* Every game read without error writes canonically. */
static void check_canonical(const uint8_t *data, size_t size)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem("fuzz.hgn", (const char *)data, size);
	for (;;) {
		size_t before = d.nerrors;
		hg_game_record *g;
		if (hg_parser_next(p, &g, &d) != 1)
			break;
		if (d.nerrors == before)
			check_idempotent(g);
		hg_record_free(g);
	}
	hg_parser_close(p);
	hg_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_canonical(data, size);
	check_paths_agree(data, size, NULL);
	/* Every limit within reach of a short input (the defaults need
	 * megabytes: the seeds of run.sh sit just under them). */
	hg_limits small;
	hg_limits_default(&small);
	small.nesting = 3;
	small.token = 24;
	small.line = 80;
	small.game = 600;
	small.actions = 8;
	small.tags = 6;
	small.elements = 10;
	small.errors = 5;
	check_paths_agree(data, size, &small);
	return 0;
}

/* fuzz-hgn.c - libFuzzer target: the HGN parser and writer on any bytes.
 * Every game that parses without error must write canonically, and the
 * canonical text must parse without error and write identically again. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "herald.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
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
	return 0;
}

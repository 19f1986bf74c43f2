/* fuzz-check.c - libFuzzer target: parse, then replay every game through
 * its engine (every game's action parser and rules), and canonicalise. */
#include <stdint.h>
#include <stdlib.h>

#include "herald.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hg_session *session;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!session)
		session = hg_session_new(NULL);
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem("fuzz.hgn", (const char *)data, size);
	hg_game_record *g;
	while (p && hg_parser_next(p, &g, &d) == 1) {
		if (d.nerrors == 0) {
			hg_check_game(session, g, &d, NULL, NULL, NULL, NULL);
			hg_canonicalize(session, g, &d);
		}
		hg_record_free(g);
		hg_diags_clear(&d);
	}
	hg_parser_close(p);
	hg_diags_free(&d);
	return 0;
}

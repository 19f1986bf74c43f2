/* fuzz-game.c - libFuzzer target for one game's action parser and rules
 * engine (built once per game with -DFUZZ_GAME="<game id>").  An input that
 * starts with '[' is a whole record; any other input is move text, played
 * after a fixed header for the game (its players and a Seed), so that the
 * fuzzer spends its time in the game's actions rather than in the tags.
 * Each game is replayed (main line and variations) and canonicalised. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "herald-engine.h"

#ifndef FUZZ_GAME
#error "build with -DFUZZ_GAME=\"<game id>\""
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static hg_session *session;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!session)
		session = hg_session_new(NULL);
	hg_buf text;
	hg_buf_init(&text);
	if (size == 0 || data[0] != '[')
		hg_buf_puts(&text, "[Game \"" FUZZ_GAME "\"]\n[Date \"2026.11.21\"]\n"
			    "[Players \"Ana; Ben\"]\n[Seed \"fuzz\"]\n[Result \"*\"]\n\n");
	hg_buf_putn(&text, (const char *)data, size);
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_mem("fuzz.hgn", text.data, text.len);
	hg_game_record *g;
	while (hg_parser_next(p, &g, &d) == 1) {
		if (d.nerrors == 0) {
			hg_state *final = NULL;
			const hg_game_class *cls = NULL;
			hg_check_game(session, g, &d, NULL, NULL, &final, &cls);
			if (final && cls) {
				/* What `herald next` and `replay` do with a position. */
				hg_buf pic;
				hg_buf_init(&pic);
				cls->render(final, &pic);
				hg_buf_free(&pic);
				hg_action_list legal = { 0 };
				cls->legal(final, &legal);
				for (size_t i = 0; i < legal.n; i++)
					cls->free_action(legal.v[i]);
				free(legal.v);
				cls->free_state(final);
			}
			hg_canonicalize(session, g, &d);
		}
		hg_record_free(g);
		hg_diags_clear(&d);
	}
	hg_parser_close(p);
	hg_diags_free(&d);
	hg_buf_free(&text);
	return 0;
}

/* enc-deck.h - checking an Encrucijada deck file (`herald deck check`).
 *
 * The construction rules of rule 1 and rule 1, B: 40 to 60 cards; at most 5
 * copies of one name in basto, copa and espada; oro cards one copy each and
 * 10 in all; an Atempus tower; the cards split into three piles.  Every
 * violation is a diagnostic at the deck file's line and column (codes
 * enc.deck-*, data.*; see herald-encrucijada(7)). */
#ifndef HERALD_ENC_DECK_H
#define HERALD_ENC_DECK_H

#include "herald-engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks `deck_file` against the bundled card pool found along `path`.
 * Returns 0 when the deck is legal, -1 after diagnostics. */
int hg_enc_deck_check(const hg_datapath *path, const char *deck_file, hg_diags *d);

/* The same against the user's own card files (read in order, instead of the
 * bundled ones); with nfiles 0 it is hg_enc_deck_check. */
int hg_enc_deck_check_with(const hg_datapath *path, const char *const *card_files,
			   size_t nfiles, const char *deck_file, hg_diags *d);

#ifdef __cplusplus
}
#endif
#endif

/* unit-koc-deck.h - The Kingdoms of Crusaders' decks for the unit tests:
 * the shipped deck, and its first 40 cards (c01 .. c40) as a deck of one's
 * own - the fewest two players need, so that, unlike the shipped 56, it
 * runs out and leaves few unseen cards at the end of a game.  Included by
 * test-koc.c and test-koc-hidden.c (after unit.h and koc.h). */
#ifndef HERALD_UNIT_KOC_DECK_H
#define HERALD_UNIT_KOC_DECK_H

#define DECK_PATH HERALD_SRCDATADIR "/kingdoms-of-crusaders/deck.yaml"

static hg_gdata *shipped(void)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = hg_koc_deck_load(DECK_PATH, &d);
	ck_assert_ptr_nonnull(g);
	hg_diags_free(&d);
	return g;
}

static hg_gdata *forty_cards(void)
{
	hg_gdata *full = shipped();
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "game: kingdoms-of-crusaders\ncards:\n");
	for (size_t i = 0; i < 40; i++) {
		hg_buf_printf(&b, "  - {id: %s, symbols: [", full->deck[i].id);
		for (unsigned k = 0, first = 1; k < KOC_NKINDS; k++)
			if ((full->deck[i].mask >> k) & 1u) {
				hg_buf_printf(&b, "%s%s", first ? "" : ", ", hg_koc_kind_names[k]);
				first = 0;
			}
		hg_buf_puts(&b, "]}\n");
	}
	hg_koc_unload(full);
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = hg_koc_deck_parse("forty.yaml", b.data, b.len, &d);
	ck_assert_ptr_nonnull(g);
	hg_diags_free(&d);
	hg_buf_free(&b);
	return g;
}

#endif

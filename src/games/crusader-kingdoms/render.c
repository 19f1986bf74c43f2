/* render.c - Crusader Kingdoms: the plain-text picture of a position, for
 * `herald replay` and `herald next`: the turn and round and whose action it
 * is, every area's owner and castle side, every faction's bonus, castles
 * and hand (the cards themselves only where the record shows them), the
 * piles and the events face up. */
#include "config.h"

#include <string.h>

#include "ck.h"

static void render_header(const hg_state *s, hg_buf *out)
{
	hg_buf_printf(out, "Crusader Kingdoms, scenario %s (map %s%s)\n", s->sc->id, s->map->id,
		      s->seeded ? ", chance from the Seed" : "");
	switch (s->phase) {
	case CK_PHASE_DRAW:
		hg_buf_printf(out, "Turn %d of %d, draws: %s draws next\n", s->turn, s->sc->turns,
			      s->sc->factions[s->cursor].id);
		break;
	case CK_PHASE_ROUNDS:
		hg_buf_printf(out, "Turn %d of %d, round %d: %s to act", s->turn, s->sc->turns,
			      s->round + 1, s->sc->factions[s->sc->order[s->cursor]].id);
		if (s->passes)
			hg_buf_printf(out, " (%d pass%s in a row)", s->passes,
				      s->passes == 1 ? "" : "es");
		hg_buf_putc(out, '\n');
		break;
	case CK_PHASE_OVER:
		hg_buf_printf(out, "Turn %d of %d: game over, won by %s\n", s->turn, s->sc->turns,
			      s->result);
		break;
	}
}

static void render_areas(const hg_state *s, hg_buf *out)
{
	hg_buf_puts(out, "Areas (shield, owner, castle):\n");
	for (int a = 0; a < s->map->nareas; a++) {
		const ck_area *ar = &s->map->areas[a];
		int o = s->owner[a];
		hg_buf_printf(out, "  %-12s %d  %-12s %s\n", ar->id, ar->defence,
			      o >= 0 ? s->sc->factions[o].id : "independent",
			      o < 0 ? "-" : s->plus1[a] ? "+1" : "regular");
	}
}

static void render_factions(const hg_state *s, hg_buf *out)
{
	hg_buf_puts(out, "Factions (bonus, castles on the map, hand):\n");
	for (int f = 0; f < s->nsides; f++) {
		const ck_faction *fa = &s->sc->factions[f];
		const ck_hand *h = &s->p[f].hand;
		hg_buf_printf(out, "  %-12s %-9s bonus %+d  castles %d/%d  hand %d: ", fa->id,
			      ck_religion_name(fa->religion), s->p[f].bonus,
			      hg_ck_castles_on_map(s, f), fa->castles, h->size);
		ck_hand_describe(s, h, out);
		hg_buf_putc(out, '\n');
	}
}

static void render_piles(const hg_state *s, hg_buf *out)
{
	for (int r = 0; r < CK_NRELIGIONS; r++)
		hg_buf_printf(out, "Deck %s: %d to draw, %d discarded\n", s->data->decks[r].id,
			      s->pile[r].n, s->pile[r].ndiscard);
	if (s->nfaceup == 0)
		return;
	hg_buf_puts(out, "Face up:");
	for (int i = 0; i < s->nfaceup; i++) {
		const ck_faceup *f = &s->faceup[i];
		hg_buf_printf(out, "%s %s (%s", i ? "," : "", ck_card_at(s, f->religion, f->card)->id,
			      s->sc->factions[f->owner].id);
		if (f->target >= 0)
			hg_buf_printf(out, " on %s", s->sc->factions[f->target].id);
		hg_buf_putc(out, ')');
	}
	hg_buf_putc(out, '\n');
}

void ck_render(const hg_state *s, hg_buf *out)
{
	render_header(s, out);
	render_areas(s, out);
	render_factions(s, out);
	render_piles(s, out);
}

/* render.c - Crusader Kingdoms: the plain-text picture of a position, for
 * `herald replay` and `herald next`: the turn and round and whose action it
 * is, every area's owner and castle side, every faction's bonus, castles
 * and hand (the cards themselves only where the record shows them), the
 * piles and the events face up.  In section 8 also the areas' numbers and
 * victory points, the scripted side's face-down cards, army and responses,
 * what its script will do next as far as it is determined, and the
 * crusaders' victory points. */
#include "config.h"

#include <stdlib.h>
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
		if (s->sc->nlevels)
			hg_buf_printf(out, "Turn %d of %d: game over: %s\n", s->turn, s->sc->turns,
				      s->result);
		else
			hg_buf_printf(out, "Turn %d of %d: game over, won by %s\n", s->turn,
				      s->sc->turns, s->result);
		break;
	}
}

static void render_areas(const hg_state *s, hg_buf *out)
{
	int numbered = s->map->areas[0].number > 0;
	hg_buf_puts(out, numbered ? "Areas (number, shield, victory points, owner, castle):\n" :
		    "Areas (shield, owner, castle):\n");
	for (int a = 0; a < s->map->nareas; a++) {
		const ck_area *ar = &s->map->areas[a];
		int o = s->owner[a];
		/* 8.1: the scripted side's areas have no token until a +1 */
		const char *castle = o < 0 ? "-" : s->plus1[a] ? "+1" :
				     ck_scripted(s, o) ? "no token" : "regular";
		if (numbered)
			hg_buf_printf(out, "  %2d %-12s %d  %d VP  %-12s %s\n", ar->number, ar->id,
				      ar->defence, ar->points,
				      o >= 0 ? s->sc->factions[o].id : "independent", castle);
		else
			hg_buf_printf(out, "  %-12s %d  %-12s %s\n", ar->id, ar->defence,
				      o >= 0 ? s->sc->factions[o].id : "independent", castle);
	}
}

static void render_factions(const hg_state *s, hg_buf *out)
{
	hg_buf_puts(out, "Factions (bonus, castles on the map, hand):\n");
	for (int f = 0; f < s->nsides; f++) {
		const ck_faction *fa = &s->sc->factions[f];
		const ck_hand *h = &s->p[f].hand;
		if (!fa->player) {
			hg_buf_printf(out, "  %-12s %-9s bonus %+d  areas %d  scripted: ", fa->id,
				      ck_religion_name(fa->religion), s->p[f].bonus,
				      hg_ck_castles_on_map(s, f));
			ck_tableau_describe(s, f, out);
			hg_buf_putc(out, '\n');
			continue;
		}
		hg_buf_printf(out, "  %-12s %-9s bonus %+d  castles %d/%d  hand %d: ", fa->id,
			      ck_religion_name(fa->religion), s->p[f].bonus,
			      hg_ck_castles_on_map(s, f), fa->castles, h->size);
		ck_hand_describe(s, h, out);
		if (s->sc->final_pass && s->phase == CK_PHASE_ROUNDS && ((s->passed >> f) & 1))
			hg_buf_puts(out, "  (passed: plays no more this turn)");
		hg_buf_putc(out, '\n');
	}
}

static const char *const place_phrase[] = {
	"is played", "joins the army", "goes face up with the responses", "is discarded"
};

/* 8.3: what the script does in the round to come, as far as the position
 * determines it (the die is chance). */
static void render_script(const hg_state *s, hg_buf *out)
{
	int f = ck_seat_to_act(s);
	if (s->phase != CK_PHASE_ROUNDS || !ck_scripted(s, f))
		return;
	int against = ck_against(s);
	const ck_tableau *t = &s->p[f].tab;
	hg_buf_printf(out, "Script (8.3): the round of %s against %s: ", s->sc->factions[f].id,
		      s->sc->factions[against].id);
	if (t->stack[0].card == CK_UNKNOWN) {
		hg_buf_puts(out, "its next card is not in the record\n");
		return;
	}
	int r = t->stack[0].religion, c = t->stack[0].card;
	int place = hg_ck_script_placement(s, f, r, c, 0);
	int strength = hg_ck_army_strength(s, f);
	const ck_card *k = ck_card_at(s, r, c);
	hg_buf_printf(out, "it reveals %s, which %s", k->id, place_phrase[place]);
	if (k->type == CK_TROOP)
		strength += k->strength;
	hg_buf_putc(out, '\n');
	if (k->type == CK_EVENT && place == CK_PLACE_NONE)
		return;		/* what follows an event depends on it */
	hg_state *tmp = ck_state_try_copy(s);
	if (!tmp)
		return;		/* (the unit of work reports it) */
	if (place == CK_PLACE_ARMY)
		ck_table_push(tmp->p[f].tab.army, &tmp->p[f].tab.narmy, r, c);
	int rolls = ck_script_rolls(tmp, f);
	free(tmp);
	if (!rolls) {
		hg_buf_puts(out, "  then no die: no army, or the crusaders hold no area\n");
		return;
	}
	int target = hg_ck_script_target(s, f, against);
	if (target < 0)
		hg_buf_printf(out, "  then the army (%d points) rolls, but no area of %s borders its land\n",
			      strength, s->sc->factions[against].id);
	else
		hg_buf_printf(out, "  then the army (%d points) rolls: on %s it attacks %s (number %d)\n",
			      strength, strength <= 1 ? "no die" :
			      strength > 6 ? "any die" : strength == 2 ? "a 1" : "a die below its points",
			      s->map->areas[target].id, s->map->areas[target].number);
}

static void render_points(const hg_state *s, hg_buf *out)
{
	if (!s->sc->nlevels)
		return;
	hg_buf_printf(out, "Crusaders' victory points now: %d (8.5: ", hg_ck_victory_points(s));
	for (int i = 0; i < s->sc->nlevels; i++) {
		if (i + 1 < s->sc->nlevels)
			hg_buf_printf(out, "%s %d+, ", s->sc->levels[i].name, s->sc->levels[i].from);
		else
			hg_buf_printf(out, "%s otherwise", s->sc->levels[i].name);
	}
	hg_buf_puts(out, ")\n");
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
	render_points(s, out);
	render_script(s, out);
}

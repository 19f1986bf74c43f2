/* incursion.c - Crusader Kingdoms: the incursion (4.3).
 *
 * The player names an opponent it shares a border with, discards a troop
 * card of its choice and rolls one die: on 4, 5 or 6 the opponent discards
 * a card at random.  The record shows the die and the card, or they follow
 * from the Seed (cards.c, CHANCE).  The opponent may be a side no player
 * controls, treated "as if it were a player" (8.3), never an ally (8).
 */
#include "config.h"

#include "ck.h"

/* At least one area of a borders an area of b. */
int ck_share_border(const hg_state *s, int a, int b)
{
	uint64_t mine = ck_areas_of(s, a), theirs = ck_areas_of(s, b);
	for (int x = 0; x < s->map->nareas; x++)
		if (((mine >> x) & 1) && (s->map->areas[x].adj & theirs))
			return 1;
	return 0;
}

/* Rule 4.3: the opponent. */
static int check_target(const hg_state *s, int seat, const ck_incursion *in, hg_diags *d)
{
	const char *me = s->sc->factions[seat].id;
	const char *them = s->sc->factions[in->target].id;
	if (in->target == seat || ck_allied(s, seat, in->target)) {
		hg_diag_add(d, HG_ERROR, in->target_pos, "ck.target",
			    in->target == seat ?
			    "%s cannot make an incursion against '%s': choose an opponent (rule 4.3)" :
			    "%s cannot make an incursion against '%s', its ally under this scenario's 'allies' (ruling 37)",
			    me, them);
		return -1;
	}
	if (!ck_share_border(s, seat, in->target)) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, in->target_pos, "ck.incursion-border",
					  "%s shares no border with '%s' (rule 4.3)", me, them);
		hg_buf b;
		hg_buf_init(&b);
		for (int f = 0; f < s->nsides; f++)
			if (f != seat && !ck_allied(s, seat, f) && ck_share_border(s, seat, f))
				hg_buf_printf(&b, "%s%s", b.len ? ", " : "", s->sc->factions[f].id);
		if (b.len)
			hg_diag_note(dg, "%s borders %s", me, b.data);
		else
			hg_diag_note(dg, "%s borders no other player", me);
		hg_buf_free(&b);
		for (uint64_t own = ck_areas_of(s, seat); own; own &= own - 1)
			ck_rests_on_area(dg, s, __builtin_ctzll(own), "adjacent");
		return -1;
	}
	if (hg_ck_truce_between(s, seat, in->target)) {
		hg_diag_add(d, HG_ERROR, in->target_pos, "ck.truce",
			    "%s and '%s' are in truce this turn: no incursion between them (rule 4.4, P event)",
			    me, them);
		return -1;
	}
	return 0;
}

int ck_apply_incursion(hg_state *s, const hg_action *a, hg_diags *d)
{
	const ck_incursion *in = &a->inc;
	if (check_target(s, a->seat, in, d) != 0)
		return -1;
	int r, c;
	if (ck_take_card(s, a->seat, &in->card, N_("rule 4.3"), &r, &c, d) != 0)
		return -1;
	if (c >= 0 && ck_card_at(s, r, c)->type != CK_TROOP) {
		hg_diag_add(d, HG_ERROR, in->card.pos, "ck.card-kind",
			    "an incursion discards a troop card, and '%s' is not one (rule 4.3)",
			    ck_card_at(s, r, c)->id);
		return -1;
	}
	if (c >= 0)
		ck_pile_discard(s, r, c);
	else
		ck_pile_discard_hidden(s, r);

	int die = in->die >= 0 ? in->die : -1;
	if (in->die == 0 || in->die > 6) {
		hg_diag_add(d, HG_ERROR, in->die_pos, "ck.die-range",
			    "a die shows 1 to 6, not %d (rule 4.3)", in->die);
		return -1;
	}
	if (s->seeded) {
		int rolled = (int)hg_prng_wide_die(&s->dice, 6);
		if (die > 0 && die != rolled) {
			hg_diag_add(d, HG_ERROR, in->die_pos, "ck.dice-seed",
				    "the Seed rolls %d for this incursion, not %d (herald-crusader-kingdoms(7), CHANCE)",
				    rolled, die);
			return -1;
		}
		die = rolled;
	} else if (die < 0) {
		/* The die is hidden ('?'), or left out but its outcome shown (a
		 * discard): a discard needs a 4 to 6, no discard a 1 to 3 when
		 * the opponent holds a card; with no card to lose, every face
		 * gives what the record shows (issue 25: unverified only when
		 * some face makes the record illegal). */
		if (in->discards.given || in->die == CK_DIE_HIDDEN) {
			int holds = s->p[in->target].hand.size > 0;
			if (in->discards.given &&
			    ck_random_cards(s, in->target, 1, -1, &in->discards, a->pos,
					    N_("rule 4.3"), NULL, d) != 0)
				return -1;
			if (in->discards.given || holds)
				hg_diag_add(d, HG_UNVERIFIED,
					    in->die_pos.line ? in->die_pos : a->pos, "ck.hidden-dice",
					    "the incursion's die is not in the record and there is no Seed: a %s is taken as rolled (rule 4.3)",
					    in->discards.given ? "4, 5 or 6" : "1, 2 or 3");
			ck_next_round(s, 0);
			return 0;
		}
		hg_diag *dg = hg_diag_add(d, HG_ERROR, a->pos, "ck.dice-missing",
					  "without a Seed the record shows the incursion's die (rule 4.3)");
		hg_diag_note(dg, "write '/ DIE' after the card, e.g. 'incursion %s with tropa-1 / 5'",
			     s->sc->factions[in->target].id);
		return -1;
	}
	if (die >= 4) {
		if (ck_random_cards(s, in->target, 1, -1, &in->discards, in->die_pos, N_("rule 4.3"),
				    NULL, d) != 0)
			return -1;
	} else if (in->discards.given) {
		hg_diag_add(d, HG_ERROR, in->discards.pos, "ck.random-count",
			    "a %d makes no one discard: only 4, 5 or 6 do (rule 4.3)", die);
		return -1;
	}
	ck_next_round(s, 0);
	return 0;
}

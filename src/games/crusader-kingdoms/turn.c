/* turn.c - Crusader Kingdoms: the turn (3, 5), the draw at its start, the
 * simple round actions (discard 4.5, pass 4.6) and the card bonus (6).
 *
 * A turn: every player draws (3, step 1; in the deployment table's order),
 * the bonus markers return to 0 (step 2), then rounds in the table's order,
 * one action each (steps 3 and 4), until every player has passed one after
 * the other; then the turn marker advances and each deck's discards,
 * undrawn cards and P events are shuffled together (5).
 *
 * In the 1- and 2-player games (8.2, 8.3) a side no player controls draws
 * too and plays its rounds by the script (script.c), one after each
 * crusader's round; a player who passes plays no more that turn, the
 * scripted side goes on until it has played every card it drew, and the
 * turn ends when both are done.
 */
#include "config.h"

#include <string.h>

#include "ck.h"

uint64_t hg_ck_areas_scan(const hg_state *s, int faction)
{
	uint64_t m = 0;
	for (int a = 0; a < s->map->nareas; a++)
		if (s->owner[a] == faction)
			m |= (uint64_t)1 << a;
	return m;
}

void hg_ck_set_owner(hg_state *s, int area, int faction)
{
	ck_set_owner(s, area, faction);
}

int hg_ck_castles_on_map(const hg_state *s, int faction)
{
	return __builtin_popcountll(ck_areas_of(s, faction));
}

/* Rule 6 and its example: the table's cards, plus or minus the bonus, less
 * the cards kept from the previous turn; never fewer than none. */
int hg_ck_draw_count(int cards, int bonus, int kept)
{
	int n = cards + bonus - kept;
	return n > 0 ? n : 0;
}

/* Rule 3, steps 3 and 4, and 8.2, 8.3: is entry i of the round order due
 * to act?  A scripted side while it holds cards; a player unless it
 * passed, where a pass is final. */
static int entry_active(const hg_state *s, int i)
{
	int f = s->sc->order[i];
	if (ck_scripted(s, f))
		return s->p[f].hand.size > 0;
	if (s->sc->final_pass)
		return !((s->passed >> f) & 1);
	return 1;
}

/* Rule 5, 8.2, 8.3: every player has passed (one after the other, or once
 * each where a pass is final), and no scripted side has a card to play. */
static int turn_over(const hg_state *s)
{
	for (unsigned m = s->sc->scripted_mask; m; m &= m - 1)
		if (s->p[__builtin_ctz(m)].hand.size > 0)
			return 0;
	return s->passed == s->sc->players_mask;
}

/* The first entry from `from` on (cyclically) that is due to act, or -1. */
static int next_active(const hg_state *s, int from)
{
	int n = s->sc->norder;
	if (n <= 0)
		return -1;
	/* the entries in turn from `from` (a cursor, at most n past the
	 * last entry): a division for each cost more than the test */
	int i = from >= 0 && from < 2 * n ? (from < n ? from : from - n) : from % n;
	for (int k = 0; k < n; k++, i = i + 1 < n ? i + 1 : 0)
		if (entry_active(s, i))
			return i;
	return -1;
}

/* Rule 3, step 2: once everyone has drawn, the bonus markers return to 0
 * and the first round begins. */
static void draws_done(hg_state *s)
{
	for (int i = 0; i < s->nsides; i++)
		s->p[i].bonus = 0;
	s->phase = CK_PHASE_ROUNDS;
	s->passes = 0;
	s->passed = 0;
	s->round = 0;
	s->cursor = next_active(s, 0);
	if (s->cursor < 0)
		s->cursor = 0;	/* every player side can pass: never idle */
}

/* Rule 3, step 1, and rule 6. */
int ck_apply_draw(hg_state *s, const hg_action *a, hg_diags *d)
{
	if (s->phase != CK_PHASE_DRAW) {
		hg_diag_add(d, HG_ERROR, a->pos, "ck.draw-unexpected",
			    "cards are drawn only at the start of a turn (rule 3, step 1)");
		return -1;
	}
	const ck_faction *f = &s->sc->factions[a->seat];
	ck_player *p = &s->p[a->seat];
	/* 8.3: a scripted side's draw is not reduced by cards kept (it keeps
	 * none in hand: what it carries over lies face up on the table). */
	int kept = f->player ? p->hand.size : 0;
	int n = hg_ck_draw_count(f->cards, p->bonus, kept);
	if (ck_draw_cards(s, a->seat, n, &a->draw, a->pos,
			  f->player ? N_("rule 3, step 1 and rule 6") : N_("rule 3, step 1 and rule 8.3"),
			  d) != 0)
		return -1;
	s->cursor++;
	if (s->cursor >= s->nsides)
		draws_done(s);
	return 0;
}

/* Rule 5: all players passed one after the other. */
static void end_of_turn(hg_state *s)
{
	ck_piles_reshuffle(s);
	if (s->turn >= s->sc->turns) {
		hg_ck_final_result(s);
		return;
	}
	s->turn++;
	s->phase = CK_PHASE_DRAW;
	s->cursor = 0;
	s->round = 0;
	s->passes = 0;
	s->passed = 0;
}

/* Rule 3, step 4: the rounds go round the table.  The turn ends when every
 * player has passed since the last action that was not a pass (with a
 * faction in the order more than once, its passes count once); where a
 * pass is final (8.2), once every player has passed; and not while a
 * scripted side holds cards (8.3).  A scripted round is no player's pass
 * and breaks no run of passes. */
void ck_next_round(hg_state *s, int passed)
{
	int seat = s->sc->order[s->cursor];
	s->round++;
	if (!ck_scripted(s, seat)) {
		s->passes = passed ? s->passes + 1 : 0;
		if (passed)
			s->passed |= 1u << seat;
		else if (!s->sc->final_pass)
			s->passed = 0;
	}
	if (s->phase == CK_PHASE_OVER)
		return;
	int next = turn_over(s) ? -1 : next_active(s, s->cursor + 1);
	if (next < 0) {
		end_of_turn(s);
		return;
	}
	s->cursor = next;
}

/* Rule 4.6: passing; "pass end" also asserts that it ends the turn. */
int ck_apply_pass(hg_state *s, const hg_action *a, hg_diags *d)
{
	int turn = s->turn;
	ck_next_round(s, 1);
	if (!a->end || s->turn != turn || s->phase != CK_PHASE_ROUNDS)
		return 0;
	/* The pass was applied to the engine's working copy, which ck_apply
	 * discards: the position is left as it was. */
	hg_diag *dg;
	if (!s->sc->final_pass) {
		dg = hg_diag_add(d, HG_ERROR, a->pos, "ck.end-wrong",
				 "this pass does not end the turn: %d of %d players have passed in a row (rule 5)",
				 __builtin_popcount(s->passed), s->sc->players);
		hg_diag_note(dg, "the turn ends when every player has passed, one after the other");
		return -1;
	}
	int cards = 0;
	for (int f = 0; f < s->nsides; f++)
		if (!s->sc->factions[f].player)
			cards += s->p[f].hand.size;
	dg = hg_diag_add(d, HG_ERROR, a->pos, "ck.end-wrong",
			 hg_ngettext("this pass does not end the turn: %d of %d players have passed, and the side no player controls holds %d card to play (rules 8.2, 8.3)",
				     "this pass does not end the turn: %d of %d players have passed, and the side no player controls holds %d cards to play (rules 8.2, 8.3)",
				     (unsigned long)cards),
			 __builtin_popcount(s->passed), s->sc->players, cards);
	hg_diag_note(dg, "the turn ends when every player has passed and the scripted side has played every card it drew");
	return -1;
}

/* Rule 4.5: one card, face down (the record may show it or write '?'). */
int ck_apply_discard(hg_state *s, const hg_action *a, hg_diags *d)
{
	int r, c;
	if (ck_take_card(s, a->seat, &a->discard, N_("rule 4.5"), &r, &c, d) != 0)
		return -1;
	if (c >= 0)
		ck_pile_discard(s, r, c);
	else
		ck_pile_discard_hidden(s, r);
	ck_next_round(s, 0);
	return 0;
}

/* The castles a record names for a gain past +2 (`castle A B ...`). */
static int named_castles(const ck_play *p, int *out, hg_pos *pos)
{
	if (!p || p->castle < 0)
		return 0;
	out[0] = p->castle;
	pos[0] = p->castle_pos;
	for (int i = 0; i < p->nmore; i++) {
		out[1 + i] = p->more_castles[i];
		pos[1 + i] = p->more_pos[i];
	}
	return 1 + p->nmore;
}

/* Rule 6: the bonus gains n.  Past +2 each step is exchanged for one of
 * the player's castles turned to +1 ("las positivas se intercambian por
 * castillos +1"): the record names one for each step (`castle A B ...`,
 * ruling 17), as far as its regular castles go; a step with no castle to
 * turn is lost. */
int hg_ck_bonus_gain(hg_state *s, int seat, int n, const ck_play *p, hg_pos pos, hg_diags *d)
{
	ck_player *pl = &s->p[seat];
	int named[CK_MAX_GAIN];
	hg_pos named_pos[CK_MAX_GAIN];
	int nnamed = named_castles(p, named, named_pos);
	int overflow = pl->bonus + n - CK_MAX_BONUS;
	if (overflow > 0 && !s->sc->bonus_from_conquest) {
		/* 8.2: the bonus "cannot be applied turning castles to +1" */
		if (nnamed) {
			hg_diag_add(d, HG_ERROR, pos, "ck.bonus-limit",
				    "in this scenario a gain past +2 is lost: no castle turns for it (rule 8.2)");
			return -1;
		}
		pl->bonus = CK_MAX_BONUS;
		return 0;
	}
	if (overflow <= 0) {
		if (nnamed) {
			hg_diag_add(d, HG_ERROR, pos, "ck.bonus-limit",
				    "no castle turns here: %s's bonus goes from %+d to %+d, within +2 (rule 6)",
				    s->sc->factions[seat].id, pl->bonus, pl->bonus + n);
			return -1;
		}
		pl->bonus += n;
		return 0;
	}
	pl->bonus = CK_MAX_BONUS;
	uint64_t regular = ck_areas_of(s, seat);
	for (int a = 0; a < s->map->nareas; a++)
		if (s->plus1[a])
			regular &= ~((uint64_t)1 << a);
	int steps = __builtin_popcountll(regular) < overflow ? __builtin_popcountll(regular) :
		    overflow;
	if (steps == 0) {
		if (nnamed) {
			hg_diag_add(d, HG_ERROR, pos, "ck.bonus-limit",
				    "%s has no castle on its regular side to turn (rule 6)",
				    s->sc->factions[seat].id);
			return -1;
		}
		return 0;	/* nothing to exchange the gain for */
	}
	int bad = -1;		/* the first named castle that cannot turn */
	uint64_t left = regular;
	for (int i = 0; i < nnamed && bad < 0; i++) {
		if (!((left >> named[i]) & 1))
			bad = i;
		else
			left &= ~((uint64_t)1 << named[i]);
	}
	if (bad >= 0 || nnamed != steps) {
		hg_diag *dg;
		if (bad >= 0)
			dg = hg_diag_add(d, HG_ERROR, named_pos[bad], "ck.bonus-limit",
					 steps == 1 ? "%s's bonus is at +2: the gain turns one of its regular castles to +1, and '%s' is not one (rule 6)"
						    : N_("%s's bonus is at +2: the gain turns some of its regular castles to +1, and '%s' is not one (rule 6)"),
					 s->sc->factions[seat].id, s->map->areas[named[bad]].id);
		else if (steps == 1)
			dg = hg_diag_add(d, HG_ERROR, pos, "ck.bonus-limit",
					 nnamed ? "%s's bonus is at +2: the gain turns one of its castles to +1; name only it with 'castle' (rule 6; ruling 17)" :
					 N_("%s's bonus is at +2: the gain turns one of its castles to +1; name it with 'castle' (rule 6; ruling 17)"),
					 s->sc->factions[seat].id);
		else
			dg = hg_diag_add(d, HG_ERROR, pos, "ck.bonus-limit",
					 "%s's gain goes %d steps past +2: it turns %d of its castles to +1; name them with 'castle', %d written (rule 6; ruling 17)",
					 s->sc->factions[seat].id, overflow, steps, nnamed);
		hg_buf b;
		hg_buf_init(&b);
		for (int a = 0; a < s->map->nareas; a++)
			if ((regular >> a) & 1)
				hg_buf_printf(&b, "%s%s", b.len ? ", " : "", s->map->areas[a].id);
		hg_diag_note(dg, "castles that can turn: %s", b.data);
		hg_buf_free(&b);
		return -1;
	}
	for (int i = 0; i < nnamed; i++)
		s->plus1[named[i]] = 1;
	return 0;
}

/* Rule 6: losses below -2 are ignored. */
void hg_ck_bonus_lose(hg_state *s, int seat, int n)
{
	ck_player *p = &s->p[seat];
	p->bonus -= n;
	if (p->bonus < CK_MIN_BONUS)
		p->bonus = CK_MIN_BONUS;
}

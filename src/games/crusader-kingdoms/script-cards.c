/* script-cards.c - Crusader Kingdoms: a side no player controls (section
 * 8), what it holds and the choices its script makes for it.
 *
 * The Muslims of the 1- and 2-player games draw their cards face down and
 * reveal them one per round, in the order drawn (8.3): their hand is a
 * stack, stack[0] the next card, and the hand the rest of the engine sees
 * (ck_hand: sizes, what is surely where) is its view, rebuilt from it
 * (or, for the card revealed, one count less).  A card the
 * record has not shown is CK_UNKNOWN.  Troops revealed form one army, and
 * responses stay face up in the order they came; both carry over from turn
 * to turn (8.3).
 *
 * The script leaves nothing to choose (8.3, 8.4): the area its army
 * attacks, the castle Murallas turns, the response it answers an attack
 * with and how Líder's points are spent all follow from the position; the
 * functions here compute them, for script.c and combat.c to check the
 * record against and for legal.c to write.
 */
#include "config.h"

#include <string.h>

#include "ck.h"

/* The hand is a view of the stack: its known cards are sure, the others
 * wild.  It is cleared by a copy of an empty hand: a memset of its size
 * compiled to `rep stos`, whose start-up cost more than the clear. */
static void sync_hand(hg_state *s, int f)
{
	static const ck_hand empty_hand;
	ck_hand *h = &s->p[f].hand;
	const ck_tableau *t = &s->p[f].tab;
	*h = empty_hand;
	for (int i = 0; i < t->nstack; i++) {
		if (t->stack[i].card == CK_UNKNOWN)
			h->wild++;
		else
			h->sure[t->stack[i].religion][t->stack[i].card]++;
	}
	h->size = t->nstack;
}

static void stack_put(ck_tableau *t, int religion, int card)
{
	if (t->nstack >= CK_MAX_DECK)
		return;		/* a deck holds at most CK_MAX_DECK cards */
	t->stack[t->nstack].religion = (unsigned char)religion;
	t->stack[t->nstack].card = card < 0 ? CK_UNKNOWN : (unsigned char)card;
	t->nstack++;
}

void hg_ck_stack_push(hg_state *s, int f, int religion, int card)
{
	stack_put(&s->p[f].tab, religion, card);
	sync_hand(s, f);
}

void ck_stack_push_n(hg_state *s, int f, int religion, const int *cards, int n)
{
	for (int i = 0; i < n; i++)
		stack_put(&s->p[f].tab, religion, cards[i]);
	sync_hand(s, f);
}

/* The card at position i leaves the stack (the hand is left to the
 * caller to rebuild). */
static ck_cardref stack_cut(ck_tableau *t, int i)
{
	ck_cardref c = t->stack[i];
	memmove(&t->stack[i], &t->stack[i + 1], (size_t)(t->nstack - i - 1) * sizeof *t->stack);
	t->nstack--;
	return c;
}

ck_cardref ck_stack_take_at(hg_state *s, int f, int i)
{
	ck_cardref c = stack_cut(&s->p[f].tab, i);
	sync_hand(s, f);
	return c;
}

/* 8.3: the next card revealed leaves the top of the stack, and the hand
 * loses that one card: in a position the rules reached (the apply path)
 * the hand is the stack's view already (every change to a scripted
 * side's cards goes through the stack), so one count less is the view of
 * what remains, without the hand rebuilt for every card revealed.
 * (ck_stack_take_at, for legal()'s scratch copies too, rebuilds it.) */
ck_cardref ck_stack_reveal_top(hg_state *s, int f)
{
	ck_hand *h = &s->p[f].hand;
	ck_cardref c = stack_cut(&s->p[f].tab, 0);
	if (c.card == CK_UNKNOWN)
		h->wild--;
	else
		h->sure[c.religion][c.card]--;
	h->size--;
	return c;
}

/* The positions the card may have been taken from are those of its known
 * copies and of the unknown cards.  Taken from the first of them, the
 * cards between the first and the last are no longer known: the card may
 * have come from any of those places. */
int hg_ck_stack_take_named(hg_state *s, int f, int religion, int card)
{
	ck_tableau *t = &s->p[f].tab;
	int first = -1, last = -1;
	for (int i = 0; i < t->nstack; i++) {
		const ck_cardref *c = &t->stack[i];
		int may = c->card == CK_UNKNOWN || card < 0 ||
			  (c->religion == religion && c->card == card);
		if (!may)
			continue;
		if (first < 0)
			first = i;
		last = i;
	}
	if (first < 0)
		return -1;
	/* the hand rebuilt once, after both changes */
	stack_cut(t, first);
	for (int i = first; i < last; i++)
		t->stack[i].card = CK_UNKNOWN;
	sync_hand(s, f);
	return 0;
}

int ck_stack_exact(const hg_state *s, int f)
{
	const ck_tableau *t = &s->p[f].tab;
	for (int i = 0; i < t->nstack; i++)
		if (t->stack[i].card == CK_UNKNOWN)
			return 0;
	return 1;
}

void ck_table_push(ck_cardref *v, int *n, int religion, int card)
{
	if (*n >= CK_MAX_TABLE)
		return;		/* checked by the callers (ck.too-many) */
	v[*n].religion = (unsigned char)religion;
	v[*n].card = (unsigned char)card;
	(*n)++;
}

void ck_table_remove(ck_cardref *v, int *n, int i)
{
	memmove(&v[i], &v[i + 1], (size_t)(*n - i - 1) * sizeof *v);
	(*n)--;
}

int hg_ck_on_table(const hg_state *s, int religion, int card)
{
	int n = 0;
	for (int f = 0; f < s->nsides; f++) {
		const ck_tableau *t = &s->p[f].tab;
		for (int i = 0; i < t->narmy; i++)
			n += t->army[i].religion == religion && t->army[i].card == card;
		for (int i = 0; i < t->nreserve; i++)
			n += t->reserve[i].religion == religion && t->reserve[i].card == card;
	}
	return n;
}

/* ------------------------------------------------------------- choices */

/* 8.2: a scripted round is played against the player whose round precedes
 * it in the order. */
int ck_against(const hg_state *s)
{
	return s->phase == CK_PHASE_ROUNDS ? s->sc->against[s->cursor] : -1;
}

/* 8.3: "the sum of the troop points of the army". */
int hg_ck_army_strength(const hg_state *s, int f)
{
	const ck_tableau *t = &s->p[f].tab;
	int n = 0;
	for (int i = 0; i < t->narmy; i++) {
		const ck_card *c = ck_card_at(s, t->army[i].religion, t->army[i].card);
		/* a troop's strength, a response none: a product, not a
		 * branch on the mix of the army's cards (asked at every
		 * scripted round) */
		n += (c->type == CK_TROOP) * c->strength;
	}
	return n;
}

/* 8.3: the army rolls when there is one, unless the crusaders (every
 * player side) hold no area. */
int ck_script_rolls(const hg_state *s, int f)
{
	return hg_ck_army_strength(s, f) != 0 && ck_crusaders_hold_area(s);
}

int ck_crusaders_hold_area(const hg_state *s)
{
	for (int p = 0; p < s->nsides; p++)
		if (s->sc->factions[p].player && ck_areas_of(s, p))
			return 1;
	return 0;
}

int ck_lowest_numbered(const hg_state *s, uint64_t mask)
{
	int best = -1;
	if (s->map->nareas < 64)
		mask &= ((uint64_t)1 << s->map->nareas) - 1;
	for (; mask; mask &= mask - 1) {	/* each area of mask, lowest first */
		int a = __builtin_ctzll(mask);
		if (best < 0 || s->map->areas[a].number < s->map->areas[best].number)
			best = a;
	}
	return best;
}

/* 8.3: "the adjacent area (controlled by the crusader in round) with the
 * lowest identification number": adjacent to the scripted side's land. */
int hg_ck_script_target(const hg_state *s, int f, int against)
{
	if (against < 0)
		return -1;
	uint64_t reach = 0;
	for (uint64_t mine = ck_areas_of(s, f); mine; mine &= mine - 1)
		reach |= s->map->areas[__builtin_ctzll(mine)].adj;
	return ck_lowest_numbered(s, reach & ck_areas_of(s, against));
}

/* 8.4, Murallas: "on the Muslim area with the lowest possible number" (a
 * castle still on its regular side); a castle turned down is the player's
 * +1 castle with the lowest number. */
int ck_script_flip_area(const hg_state *s, int f, int against, const ck_effect *fx)
{
	int owner = fx->n > 0 ? f : against;
	if (owner < 0)
		return -1;
	uint64_t m = ck_areas_of(s, owner);
	for (int a = 0; a < s->map->nareas; a++)
		if ((int)s->plus1[a] != (fx->n < 0))
			m &= ~((uint64_t)1 << a);
	return ck_lowest_numbered(s, m);
}

/* Rule 6 for the script: a gain past +2 turns its regular castle with the
 * lowest number. */
int ck_script_castle(const hg_state *s, int f)
{
	uint64_t m = ck_areas_of(s, f);
	for (int a = 0; a < s->map->nareas; a++)
		if (s->plus1[a])
			m &= ~((uint64_t)1 << a);
	return ck_lowest_numbered(s, m);
}

/* Where a card revealed (or taken, 8.4 Seducción) goes: a troop to the
 * army; a response face up, or to the army as its `script` key says
 * (Líder, Reagrupamiento); an event is played (CK_PLACE_NONE), or, taken
 * from a player, discarded when it would not act in the side's favour. */
int hg_ck_script_placement(const hg_state *s, int f, int religion, int card, int stolen)
{
	const ck_card *c = ck_card_at(s, religion, card);
	switch (c->type) {
	case CK_TROOP:
		return CK_PLACE_ARMY;
	case CK_RESPONSE:
		/* the army's strength only where it decides (a troop, the
		 * card nearly every round reveals, goes to the army anyway) */
		switch (c->script) {
		case CK_SP_ARMY_OR_RESPONSE:
			return hg_ck_army_strength(s, f) > 0 ? CK_PLACE_ARMY : CK_PLACE_RESPONSE;
		case CK_SP_ARMY_OR_DISCARD:
			return hg_ck_army_strength(s, f) > 0 ? CK_PLACE_ARMY : CK_PLACE_DISCARDED;
		case CK_SP_RESPONSE:
			break;
		}
		return CK_PLACE_RESPONSE;
	case CK_EVENT:
		break;
	}
	if (!stolen)
		return CK_PLACE_NONE;
	for (int i = 0; i < c->nfx; i++)
		if (c->fx[i].verb == CK_FX_STEAL)
			return CK_PLACE_DISCARDED;	/* its own taking would need words of its own */
	return ck_script_event_acts(s, f, ck_against(s), c) ? CK_PLACE_NONE : CK_PLACE_DISCARDED;
}

/* 8.4, Seducción: "if the Muslims can play it in their favour": every step
 * is one the script plays, and one of them has something to act on. */
int ck_script_event_acts(const hg_state *s, int f, int against, const ck_card *c)
{
	if (c->type != CK_EVENT || !ck_event_scriptable(c, NULL))
		return 0;
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		switch (fx->verb) {
		case CK_FX_RANDOM_DISCARD:
		case CK_FX_STEAL:
			if (against >= 0 && s->p[against].hand.size > 0)
				return 1;
			break;
		case CK_FX_BONUS:
			if (fx->target == CK_T_SELF || against >= 0)
				return 1;
			break;
		case CK_FX_FLIP:
			if (ck_script_flip_area(s, f, against, fx) >= 0)
				return 1;
			break;
		default:
			break;
		}
	}
	return 0;
}

/* 8.3: attacked with 3 dice or more, the side answers "with the first
 * response available": the first face-up response that can serve the
 * defence of the target.  Its index in the reserve, or -1. */
int ck_script_response(const hg_state *s, int f, int target, int attack_dice)
{
	if (attack_dice < 3)
		return -1;
	const ck_tableau *t = &s->p[f].tab;
	for (int i = 0; i < t->nreserve; i++) {
		const ck_card *c = ck_card_at(s, t->reserve[i].religion, t->reserve[i].card);
		if (!(c->sides & CK_SIDE_DEFENCE))
			continue;
		ck_support sup = { 0, 0, 0, 0 };
		ck_response_support(c, &sup);
		if (sup.needs_castle && s->owner[target] < 0)
			continue;
		return i;
	}
	return -1;
}

/* Líder's points (ruling 32): as many hits as they buy, the cheapest
 * first, each die raised exactly to 4. */
int hg_ck_script_mods(const int *dice, int n, int points, ck_mod *mods)
{
	int used[CK_MAX_LIST] = { 0 }, k = 0;
	for (;;) {
		int best = -1;
		for (int i = 0; i < n; i++)
			if (!used[i] && dice[i] < 4 && 4 - dice[i] <= points &&
			    (best < 0 || dice[i] > dice[best]))
				best = i;
		if (best < 0)
			return k;
		used[best] = 1;
		points -= 4 - dice[best];
		mods[k].from = dice[best];
		mods[k].to = 4;
		k++;
	}
}

static void describe_refs(const hg_state *s, const ck_cardref *v, int n, hg_buf *out)
{
	for (int i = 0; i < n; i++)
		hg_buf_printf(out, "%s%s", i ? " " : "",
			      v[i].card == CK_UNKNOWN ? "?" :
			      ck_card_at(s, v[i].religion, v[i].card)->id);
	if (n == 0)
		hg_buf_puts(out, _("none"));
}

void ck_tableau_describe(const hg_state *s, int f, hg_buf *out)
{
	const ck_tableau *t = &s->p[f].tab;
	hg_buf_printf(out, _("face down %d (next first): "), t->nstack);
	describe_refs(s, t->stack, t->nstack, out);
	hg_buf_printf(out, _("; army (%d points): "), hg_ck_army_strength(s, f));
	describe_refs(s, t->army, t->narmy, out);
	hg_buf_puts(out, _("; responses face up: "));
	describe_refs(s, t->reserve, t->nreserve, out);
}

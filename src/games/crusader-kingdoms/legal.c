/* legal.c - Crusader Kingdoms: the legal actions of a position, for
 * `herald next` and `herald gen` (which picks uniformly among them).
 *
 * The list is complete for draws, passes, discards and incursions.  Where
 * the choices multiply, it holds a documented sample (herald-crusader-
 * kingdoms(7), LEGAL ACTIONS):
 *   attacks   every legal target, from the lowest-numbered area it borders;
 *             the attacker's 1, 2 or all troop cards, strongest first, with
 *             and without all its attack responses; the defender adding
 *             nothing, or all its defence responses and every +1 castle it
 *             may turn; Líder points raise the lowest dice under 4 to 4;
 *             after a win, 'bonus' (below +2) or the castle just placed;
 *   events    every target player and area the card allows, a chosen
 *             discard taking the target's first card in file order.
 * With a Seed, every die and random card is written out as the Seed
 * gives it.  Every non-pass action spends a card and cards return to the
 * pile only between turns, so random play ends every turn, and the game.
 *
 * A side no player controls (section 8) has one legal round when the
 * script is determined: its next card known (a Seed, or a draw the record
 * listed), and with a Seed its die and dice; the defender's choices in its
 * army's attack are sampled as above.  Otherwise every card that may come
 * next, every card Seducción may take, and the die '?' with and without
 * the attack.
 *
 * Short of memory inside a unit of work that reports it (util.c), every
 * allocation here is a try: a list that cannot grow keeps what it holds,
 * an action is pushed only when nothing was lost while it was built, and
 * the generators stop once the unit has failed (the core then drops the
 * whole list, engine-call.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ck.h"

/* An item as the parser would build it from the card's id. */
static ck_item make_item(const hg_state *s, int r, int c)
{
	ck_item it;
	memset(&it, 0, sizeof it);
	const char *id = s->data->decks[r].cards[c].id;
	for (int x = 0; x < CK_NRELIGIONS; x++)
		it.card[x] = (short)hg_names_find(s->data->decks[x].names, id);
	return it;
}

static ck_item hidden_item(void)
{
	ck_item it;
	memset(&it, 0, sizeof it);
	it.card[0] = it.card[1] = -1;
	return it;
}

static void items_push(ck_items *l, ck_item it)
{
	ck_item *v = hg_try_realloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
	if (!v)
		return;
	l->v = v;
	l->v[l->n++] = it;
	l->given = 1;
}

/* ck_action_new, NULL short of memory. */
static hg_action *action_new(ck_kind kind, int seat)
{
	hg_action *a = hg_try_malloc(sizeof *a);
	if (a)
		ck_action_init(a, kind, seat);
	return a;
}

/* Pushes a complete action onto the list, or frees it: one built while an
 * allocation was lost may lack a part. */
static void keep(hg_action_list *out, hg_action *a)
{
	if (!a)
		return;
	if (hg_alloc_lost() || hg_action_list_push(out, a) != 0)
		ck_free_action(a);
}

/* The cards a hand surely holds, each copy once, in file order. */
typedef struct card_ref {
	int r, c;
} card_ref;

static int sure_cards(const hg_state *s, int seat, card_ref *out, int distinct)
{
	const ck_hand *h = &s->p[seat].hand;
	int n = 0;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < s->data->decks[r].ncards; c++) {
			int k = ck_hand_sure(h, r, c);
			if (distinct && k > 1)
				k = 1;
			for (int x = 0; x < k && n < CK_MAX_DECK; x++) {
				out[n].r = r;
				out[n].c = c;
				n++;
			}
		}
	return n;
}

/* Takes a card the hand surely holds out of it (a scratch copy). */
static void take_known(ck_hand *h, int r, int c)
{
	ck_hand_remove_sure(h, r, c);
}

/* ------------------------------------------------------------- draws */
static void legal_draw(const hg_state *s, int seat, hg_action_list *out)
{
	hg_action *a = action_new(CK_ACT_DRAW, seat);
	if (!a)
		return;
	const ck_faction *f = &s->sc->factions[seat];
	int r = f->religion;
	const ck_pile *p = &s->pile[r];
	int kept = f->player ? s->p[seat].hand.size : 0;	/* 8.3 */
	int n = hg_ck_draw_count(f->cards, s->p[seat].bonus, kept);
	int k = n < p->n ? n : p->n;
	a->draw.given = 1;
	if (p->exact && k > 0) {
		for (int i = 0; i < k; i++)
			items_push(&a->draw, make_item(s, r, p->order[p->head + i]));
	} else {
		a->draw.count = k;
		if (k > 0)
			items_push(&a->draw, hidden_item());
	}
	keep(out, a);
}

/* ------------------------------------------------------------ attacks */

/* A copy of the n elements of v; NULL with *n set to 0 when there are
 * none or no memory for them (the unit records the failure). */
static void *dup_array(const void *v, int *n, size_t size)
{
	if (!v || *n <= 0)
		return NULL;
	void *c = hg_try_malloc((size_t)*n * size);
	if (!c) {
		*n = 0;
		return NULL;
	}
	memcpy(c, v, (size_t)*n * size);
	return c;
}

static void attack_copy(ck_attack *dst, const ck_attack *src)
{
	*dst = *src;
	dst->with = dup_array(src->with, &dst->nwith, sizeof *src->with);
	dst->resp = dup_array(src->resp, &dst->nresp, sizeof *src->resp);
	dst->turned = dup_array(src->turned, &dst->nturned, sizeof *src->turned);
	for (int i = 0; i < 2; i++) {
		dst->roll[i].dice = dup_array(src->roll[i].dice, &dst->roll[i].ndice,
					      sizeof *src->roll[i].dice);
		dst->roll[i].mods = dup_array(src->roll[i].mods, &dst->roll[i].nmods,
					      sizeof *src->roll[i].mods);
	}
}

typedef struct attack_set {
	ck_attack *v;
	int n;
	size_t cap;
} attack_set;

static void set_push(attack_set *set, const ck_attack *a)
{
	if (hg_alloc_lost() || HG_TRY_GROW(set->v, set->cap, (size_t)set->n + 1) != 0)
		return;
	attack_copy(&set->v[set->n++], a);
}

static int cmp_strength_desc(const void *x, const void *y, const hg_state *s)
{
	const card_ref *a = x, *b = y;
	return ck_card_at(s, b->r, b->c)->strength - ck_card_at(s, a->r, a->c)->strength;
}

static void sort_troops(const hg_state *s, card_ref *v, int n)
{
	for (int i = 1; i < n; i++)	/* insertion sort: stable, tiny n */
		for (int j = i; j > 0 && cmp_strength_desc(&v[j - 1], &v[j], s) > 0; j--) {
			card_ref t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

static int response_points(const hg_state *s, const ck_item *it, int seat)
{
	int r = ck_item_religion(it, s->sc->factions[seat].religion);
	ck_support sup = { 0, 0, 0, 0 };
	ck_response_support(ck_card_at(s, r, it->card[r]), &sup);
	return sup.points;
}

/* Líder's points raise the dice closest under 4 to 4, as far as they go
 * (the way the script spends them, ruling 32). */
static void greedy_mods(ck_roll *roll, int points)
{
	if (points <= 0)
		return;
	int v[CK_MAX_LIST];
	for (int i = 0; i < roll->ndice; i++)
		v[i] = roll->dice[i].v;
	roll->mods = hg_try_calloc((size_t)roll->ndice + 1, sizeof *roll->mods);
	if (!roll->mods)
		return;
	roll->nmods = hg_ck_script_mods(v, roll->ndice, points, roll->mods);
}

/* The rolls and the outcome of attack `a` as the Seed has them; without a
 * Seed the rolls stay '?'.  `army`: the attacker's cards are its army. */
static void roll_attack(const hg_state *s, int seat, ck_attack *a, const ck_effect *fx, int army)
{
	if (!s->seeded) {
		for (int side = 0; side < 2; side++) {
			a->roll[side].given = 0;
			a->roll[side].hits = -1;
		}
		return;
	}
	int counts[2];
	ck_dice_counts(s, seat, a, fx, army, counts);
	hg_prng_wide rng = s->dice;
	int points[2] = { 0, 0 };
	const ck_tableau *t = &s->p[seat].tab;
	for (int i = 0; army && i < t->narmy; i++) {
		ck_support sup = { 0, 0, 0, 0 };
		ck_response_support(ck_card_at(s, t->army[i].religion, t->army[i].card), &sup);
		points[0] += sup.points;
	}
	for (int i = 0; i < a->nwith; i++) {
		int r = ck_item_religion(&a->with[i], s->sc->factions[seat].religion);
		if (ck_card_at(s, r, a->with[i].card[r])->type == CK_RESPONSE)
			points[0] += response_points(s, &a->with[i], seat);
	}
	for (int i = 0; i < a->nresp; i++)
		points[a->resp[i].side == CK_SIDE_ATTACK ? 0 : 1] +=
			response_points(s, &a->resp[i].card, a->resp[i].seat);
	int hits[2];
	for (int side = 0; side < 2; side++) {
		ck_roll *roll = &a->roll[side];
		roll->given = 1;
		roll->dice = hg_try_calloc((size_t)counts[side] + 1, sizeof *roll->dice);
		roll->ndice = roll->dice ? counts[side] : 0;
		for (int i = 0; i < roll->ndice; i++)
			roll->dice[i].v = (int)hg_prng_wide_die(&rng, 6);
	}
	for (int side = 0; side < 2; side++) {
		ck_roll *roll = &a->roll[side];
		greedy_mods(roll, points[side]);
		int v[CK_MAX_LIST];
		for (int i = 0; i < roll->ndice; i++)
			v[i] = roll->dice[i].v;
		for (int m = 0; m < roll->nmods; m++)
			for (int i = 0; i < roll->ndice; i++)
				if (v[i] == roll->mods[m].from && roll->dice[i].v == v[i]) {
					v[i] = roll->mods[m].to;
					break;
				}
		hits[side] = ck_hits(v, roll->ndice);
		roll->hits = hits[side];
	}
	a->won = hits[0] > hits[1];
}

/* Adds the outcome choices of a rolled attack to the set. */
static void push_outcomes(const hg_state *s, int seat, attack_set *set, ck_attack *a)
{
	if (!s->seeded) {
		/* No Seed: the dice are unknown; both outcomes are possible. */
		a->won = 0;
		a->choice = CK_CHOICE_NONE;
		set_push(set, a);
		a->won = 1;
	} else if (!a->won) {
		a->choice = CK_CHOICE_NONE;
		set_push(set, a);
		return;
	}
	if (!s->sc->bonus_from_conquest) {
		a->choice = CK_CHOICE_NONE;
		set_push(set, a);
		return;
	}
	if (s->p[seat].bonus < CK_MAX_BONUS) {
		a->choice = CK_CHOICE_BONUS;
		set_push(set, a);
	}
	a->choice = CK_CHOICE_CASTLE;
	a->castle = a->target;
	set_push(set, a);
}

static int lowest_from(const hg_state *s, int seat, int target, const ck_effect *fx)
{
	uint64_t base = ck_areas_of(s, seat);
	if (fx && fx->from_ally)
		for (int f = 0; f < s->nsides; f++)
			if (f != seat && s->sc->factions[f].player &&
			    s->sc->factions[f].religion == s->sc->factions[seat].religion)
				base |= ck_areas_of(s, f);
	base &= s->map->areas[target].adj;
	return base ? __builtin_ctzll(base) : -1;
}

/* The responses `who` surely holds that may support `side` here. */
static int usable_responses(const hg_state *s, int who, int side, int target, card_ref *out)
{
	card_ref all[CK_MAX_DECK];
	int n = sure_cards(s, who, all, 0), k = 0;
	for (int i = 0; i < n; i++) {
		const ck_card *c = ck_card_at(s, all[i].r, all[i].c);
		if (c->type != CK_RESPONSE || !(c->sides & side))
			continue;
		ck_support sup = { 0, 0, 0, 0 };
		ck_response_support(c, &sup);
		if (sup.needs_castle && s->owner[target] < 0)
			continue;
		out[k++] = all[i];
	}
	return k;
}

/* The defender's side at its fullest: every usable defence response and
 * every +1 castle that may be turned. */
static void add_full_defence(const hg_state *s, ck_attack *a, int defender,
			     const card_ref *def_resp, int ndef, uint64_t turnable)
{
	a->resp = hg_try_calloc((size_t)ndef + 1, sizeof *a->resp);
	a->turned = hg_try_calloc(CK_MAX_AREAS, sizeof *a->turned);
	if (!a->resp || !a->turned)
		return;		/* (the unit drops what it builds) */
	for (int i = 0; i < ndef; i++) {
		a->resp[i].seat = defender;
		a->resp[i].card = make_item(s, def_resp[i].r, def_resp[i].c);
		a->resp[i].side = CK_SIDE_DEFENCE;
	}
	a->nresp = ndef;
	for (int x = 0; x < s->map->nareas; x++)
		if ((turnable >> x) & 1)
			a->turned[a->nturned++].v = x;
}

static void attack_options(const hg_state *s, int seat, const ck_effect *fx, attack_set *set)
{
	card_ref all[CK_MAX_DECK], troops[CK_MAX_DECK], own_resp[CK_MAX_DECK],
		 def_resp[CK_MAX_DECK];
	int n = sure_cards(s, seat, all, 0), ntroops = 0;
	for (int i = 0; i < n; i++)
		if (ck_card_at(s, all[i].r, all[i].c)->type == CK_TROOP)
			troops[ntroops++] = all[i];
	sort_troops(s, troops, ntroops);
	hg_pos nowhere = { NULL, 0, 0 };
	for (int t = 0; t < s->map->nareas && !hg_alloc_lost(); t++) {
		if (ck_attack_target_ok(s, seat, t, fx, nowhere, NULL) != 0)
			continue;
		int defender = s->owner[t];
		int scripted = ck_scripted(s, defender);
		int nown = usable_responses(s, seat, CK_SIDE_ATTACK, t, own_resp);
		int ndef = defender >= 0 && !scripted ?
			   usable_responses(s, defender, CK_SIDE_DEFENCE, t, def_resp) : 0;
		uint64_t turnable = 0;
		for (int x = 0; defender >= 0 && !scripted && x < s->map->nareas; x++)
			if (s->owner[x] == defender && s->plus1[x] && ck_borders(s, x, t))
				turnable |= (uint64_t)1 << x;
		int ks[3] = { 1, 2, ntroops }, nk = 0, kv[3];
		for (int i = 0; i < 3; i++) {
			int k = ntroops == 0 ? 0 : ks[i];
			if (k > ntroops)
				continue;
			int dup = 0;
			for (int j = 0; j < nk; j++)
				dup |= kv[j] == k;
			if (!dup)
				kv[nk++] = k;
		}
		for (int ki = 0; ki < nk && !hg_alloc_lost(); ki++)
			for (int rv = 0; rv <= (nown > 0) && !hg_alloc_lost(); rv++)
				for (int dv = 0; dv <= (ndef > 0 || turnable) && !hg_alloc_lost();
				     dv++) {
					ck_attack a;
					memset(&a, 0, sizeof a);
					a.target = t;
					a.from = lowest_from(s, seat, t, fx);
					a.castle = -1;
					int nwith = kv[ki] + (rv ? nown : 0);
					a.with = hg_try_calloc((size_t)nwith + 1, sizeof *a.with);
					if (!a.with)
						continue;
					for (int i = 0; i < kv[ki]; i++)
						a.with[a.nwith++] = make_item(s, troops[i].r, troops[i].c);
					for (int i = 0; rv && i < nown; i++)
						a.with[a.nwith++] = make_item(s, own_resp[i].r, own_resp[i].c);
					if (dv)
						add_full_defence(s, &a, defender, def_resp, ndef, turnable);
					int counts[2];
					ck_dice_counts(s, seat, &a, fx, 0, counts);
					/* 8.3: the script's answer to 3 dice or more */
					int due = scripted ? ck_script_response(s, defender, t, counts[0]) : -1;
					if (due >= 0) {
						ck_cardref x = s->p[defender].tab.reserve[due];
						a.resp = hg_try_calloc(1, sizeof *a.resp);
						if (!a.resp) {
							ck_free_attack(&a);
							continue;
						}
						a.resp[0].seat = defender;
						a.resp[0].card = make_item(s, x.religion, x.card);
						a.resp[0].side = CK_SIDE_DEFENCE;
						a.nresp = 1;
						ck_dice_counts(s, seat, &a, fx, 0, counts);
					}
					if (counts[0] > 0 && counts[0] <= CK_MAX_LIST &&
					    counts[1] <= CK_MAX_LIST) {
						roll_attack(s, seat, &a, fx, 0);
						push_outcomes(s, seat, set, &a);
					}
					ck_free_attack(&a);
				}
	}
}

static void legal_attacks(const hg_state *s, int seat, hg_action_list *out)
{
	attack_set set = { NULL, 0, 0 };
	attack_options(s, seat, NULL, &set);
	int i = 0;
	for (; i < set.n && !hg_alloc_lost(); i++) {
		hg_action *a = action_new(CK_ACT_ATTACK, seat);
		if (!a)
			break;
		a->attack = set.v[i];
		keep(out, a);
	}
	for (; i < set.n; i++)
		ck_free_attack(&set.v[i]);
	free(set.v);
}

/* --------------------------------------------------------- incursions */

/* One card taken at random from the victim on the scratch state, the way
 * apply() takes it (cards.c): its identity, or -1 when the Seed cannot tell
 * (the record then writes '?'). */
static int random_pick(hg_state *tmp, int victim, int *r)
{
	ck_hand *h = &tmp->p[victim].hand;
	int c = -1;
	*r = tmp->sc->factions[victim].religion;
	if (ck_scripted(tmp, victim)) {
		if (tmp->seeded) {
			uint32_t pick = hg_prng_below(&tmp->random, (uint32_t)h->size);
			if (ck_stack_exact(tmp, victim)) {
				ck_cardref x = ck_stack_take_at(tmp, victim, (int)pick);
				*r = x.religion;
				return x.card;
			}
		}
		hg_ck_stack_take_named(tmp, victim, *r, -1);
		return -1;
	}
	if (tmp->seeded)
		c = ck_hand_random(tmp, h, r);
	if (c >= 0)
		take_known(h, *r, c);
	else
		ck_hand_take_hidden(h);
	return c;
}

static void legal_incursions(const hg_state *s, int seat, hg_action_list *out)
{
	card_ref cards[CK_MAX_DECK];
	int n = sure_cards(s, seat, cards, 1);
	for (int f = 0; f < s->nsides; f++) {
		if (f == seat || ck_allied(s, seat, f) || !ck_share_border(s, seat, f) ||
		    hg_ck_truce_between(s, seat, f))
			continue;
		for (int i = 0; i < n && !hg_alloc_lost(); i++) {
			if (ck_card_at(s, cards[i].r, cards[i].c)->type != CK_TROOP)
				continue;
			hg_action *a = action_new(CK_ACT_INCURSION, seat);
			if (!a)
				return;
			a->inc.target = f;
			a->inc.card = make_item(s, cards[i].r, cards[i].c);
			if (s->seeded) {
				hg_state *tmp = ck_state_try_copy(s);
				if (!tmp) {
					ck_free_action(a);
					return;
				}
				a->inc.die = (int)hg_prng_wide_die(&tmp->dice, 6);
				if (a->inc.die >= 4 && tmp->p[f].hand.size > 0) {
					int r, c = random_pick(tmp, f, &r);
					items_push(&a->inc.discards,
						   c >= 0 ? make_item(s, r, c) : hidden_item());
				}
				free(tmp);
			} else {
				a->inc.die = CK_DIE_HIDDEN;	/* unknown without a Seed */
				if (s->p[f].hand.size > 0)
					items_push(&a->inc.discards, hidden_item());
			}
			keep(out, a);
		}
	}
}

/* ------------------------------------------------------------- events */
static int targets_ok(const hg_state *s, int seat, const ck_card *c, int on)
{
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		int targeted = fx->verb == CK_FX_RANDOM_DISCARD || fx->verb == CK_FX_CHOSEN_DISCARD ||
			       fx->verb == CK_FX_STEAL || fx->verb == CK_FX_TRUCE ||
			       (fx->verb == CK_FX_BONUS && fx->target != CK_T_SELF);
		if (targeted && !ck_target_ok(s, seat, fx->target, on))
			return 0;
	}
	return 1;
}

static int needs(const ck_card *c, ck_verb v)
{
	for (int i = 0; i < c->nfx; i++)
		if (c->fx[i].verb == v)
			return 1;
	return 0;
}

static int needs_on(const ck_card *c)
{
	for (int i = 0; i < c->nfx; i++) {
		ck_verb v = c->fx[i].verb;
		if (v == CK_FX_RANDOM_DISCARD || v == CK_FX_CHOSEN_DISCARD || v == CK_FX_STEAL ||
		    v == CK_FX_TRUCE || (v == CK_FX_BONUS && c->fx[i].target != CK_T_SELF))
			return 1;
	}
	return 0;
}

static int flip_ok(const hg_state *s, int seat, const ck_card *c, int area)
{
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		if (fx->verb != CK_FX_FLIP)
			continue;
		int o = s->owner[area];
		if (o < 0 || !ck_target_ok(s, seat, fx->target, o) ||
		    (int)s->plus1[area] != (fx->n < 0))
			return 0;
	}
	return 1;
}

/* Random cards from the victim's hand on the scratch state, as the Seed
 * picks them. */
static void pick_random(hg_state *tmp, int victim, int n, int to, ck_items *items)
{
	ck_hand *h = &tmp->p[victim].hand;
	int k = n < h->size ? n : h->size;
	for (int i = 0; i < k; i++) {
		int r, c = random_pick(tmp, victim, &r);
		if (c >= 0) {
			items_push(items, make_item(tmp, r, c));
			if (to >= 0)
				ck_hand_add(&tmp->p[to].hand, r, c);
			else
				ck_pile_discard(tmp, r, c);
		} else {
			items_push(items, hidden_item());
			if (to >= 0)
				ck_hand_add_wild(&tmp->p[to].hand);
		}
	}
}

/* Fills the chance and the choices of event `c` played with `on` and
 * `at`, stepping through its effects on a scratch copy. */
static void fill_event(hg_state *tmp, int seat, const ck_card *c, ck_play *p)
{
	for (int i = 0; i < c->nfx; i++) {
		const ck_effect *fx = &c->fx[i];
		int victim = fx->target == CK_T_SELF ? seat : p->on;
		switch (fx->verb) {
		case CK_FX_RANDOM_DISCARD:
			pick_random(tmp, victim, fx->n, -1, &p->discards);
			break;
		case CK_FX_STEAL:
			pick_random(tmp, victim, fx->n, seat, &p->takes);
			break;
		case CK_FX_CHOSEN_DISCARD: {
			card_ref cards[CK_MAX_DECK];
			int n = sure_cards(tmp, victim, cards, 0);
			int k = fx->n < tmp->p[victim].hand.size ? fx->n : tmp->p[victim].hand.size;
			for (int x = 0; x < k; x++) {
				if (x < n) {
					items_push(&p->discards, make_item(tmp, cards[x].r, cards[x].c));
					take_known(&tmp->p[victim].hand, cards[x].r, cards[x].c);
				} else {
					items_push(&p->discards, hidden_item());
					ck_hand_take_hidden(&tmp->p[victim].hand);
				}
			}
			break;
		}
		case CK_FX_DRAW: {
			int r = tmp->sc->factions[seat].religion;
			ck_pile *pile = &tmp->pile[r];
			int k = fx->n < pile->n ? fx->n : pile->n;
			for (int x = 0; x < k; x++) {
				int card = ck_pile_draw(tmp, r);
				items_push(&p->draws, card >= 0 ? make_item(tmp, r, card) : hidden_item());
				if (card >= 0)
					ck_hand_add(&tmp->p[seat].hand, r, card);
				else
					ck_hand_add_wild(&tmp->p[seat].hand);
			}
			break;
		}
		case CK_FX_FLIP:
			tmp->plus1[p->at] = fx->n > 0;
			break;
		case CK_FX_BONUS:
			if (fx->n > 0 && tmp->p[victim].bonus + fx->n > CK_MAX_BONUS) {
				uint64_t regular = ck_areas_of(tmp, victim);
				for (int a = 0; a < tmp->map->nareas; a++)
					if (tmp->plus1[a])
						regular &= ~((uint64_t)1 << a);
				/* a castle for each step past +2 (ruling 17) */
				int over = tmp->p[victim].bonus + fx->n - CK_MAX_BONUS;
				for (int k = 0; k < over && regular; k++) {
					int x = __builtin_ctzll(regular);
					if (k == 0)
						p->castle = x;
					else
						p->more_castles[p->nmore++] = x;
					tmp->plus1[x] = 1;
					regular &= regular - 1;
				}
				tmp->p[victim].bonus = CK_MAX_BONUS;
			} else if (fx->n > 0) {
				tmp->p[victim].bonus += fx->n;
			} else {
				hg_ck_bonus_lose(tmp, victim, -fx->n);
			}
			break;
		default:
			break;
		}
	}
}

static void play_copy(ck_play *dst, const ck_play *src)
{
	*dst = *src;
	dst->draws.v = dup_array(src->draws.v, &dst->draws.n, sizeof *src->draws.v);
	dst->takes.v = dup_array(src->takes.v, &dst->takes.n, sizeof *src->takes.v);
	dst->discards.v = dup_array(src->discards.v, &dst->discards.n, sizeof *src->discards.v);
}

static void legal_event(const hg_state *s, int seat, int r, int cidx, hg_action_list *out)
{
	const ck_card *c = ck_card_at(s, r, cidx);
	int ons[CK_MAX_SIDES + 1], non = 0;
	if (needs_on(c)) {
		for (int f = 0; f < s->nsides; f++)
			if (targets_ok(s, seat, c, f))
				ons[non++] = f;
	} else {
		ons[non++] = -1;
	}
	int ats[CK_MAX_AREAS + 1], nat = 0;
	if (needs(c, CK_FX_FLIP)) {
		for (int a = 0; a < s->map->nareas; a++)
			if (flip_ok(s, seat, c, a))
				ats[nat++] = a;
	} else {
		ats[nat++] = -1;
	}
	const ck_effect *afx = ck_event_attack(c);
	size_t size = ck_state_size(s);
	hg_state *tmp = hg_try_malloc(size);
	if (!tmp)
		return;
	for (int i = 0; i < non && !hg_alloc_lost(); i++)
		for (int j = 0; j < nat && !hg_alloc_lost(); j++) {
			memcpy(tmp, s, size);
			take_known(&tmp->p[seat].hand, r, cidx);
			ck_play p;
			memset(&p, 0, sizeof p);
			p.card = make_item(s, r, cidx);
			p.on = ons[i];
			p.at = ats[j];
			p.castle = -1;
			p.draws.count = p.takes.count = p.discards.count = -1;
			fill_event(tmp, seat, c, &p);
			if (!afx) {
				hg_action *a = action_new(CK_ACT_PLAY, seat);
				if (a) {
					a->play = p;
					keep(out, a);
					continue;
				}
				free(p.draws.v);
				free(p.takes.v);
				free(p.discards.v);
				continue;
			}
			attack_set set = { NULL, 0, 0 };
			attack_options(tmp, seat, afx, &set);
			int k = 0;
			for (; k < set.n && !hg_alloc_lost(); k++) {
				hg_action *a = action_new(CK_ACT_PLAY, seat);
				if (!a)
					break;
				play_copy(&a->play, &p);
				a->play.has_attack = 1;
				a->play.attack = set.v[k];
				keep(out, a);
			}
			for (; k < set.n; k++)
				ck_free_attack(&set.v[k]);
			free(set.v);
			free(p.draws.v);
			free(p.takes.v);
			free(p.discards.v);
		}
	free(tmp);
}

static void legal_events(const hg_state *s, int seat, hg_action_list *out)
{
	card_ref cards[CK_MAX_DECK];
	int n = sure_cards(s, seat, cards, 1);
	for (int i = 0; i < n && !hg_alloc_lost(); i++)
		if (ck_card_at(s, cards[i].r, cards[i].c)->type == CK_EVENT)
			legal_event(s, seat, cards[i].r, cards[i].c, out);
}

/* ------------------------------------------------------------- rounds */
static void legal_discards(const hg_state *s, int seat, hg_action_list *out)
{
	card_ref cards[CK_MAX_DECK];
	int n = sure_cards(s, seat, cards, 1);
	for (int i = 0; i < n && !hg_alloc_lost(); i++) {
		hg_action *a = action_new(CK_ACT_DISCARD, seat);
		if (a)
			a->discard = make_item(s, cards[i].r, cards[i].c);
		keep(out, a);
	}
	if (n == 0) {
		hg_action *a = action_new(CK_ACT_DISCARD, seat);
		if (a)
			a->discard = hidden_item();
		keep(out, a);
	}
}

/* ------------------------------------------------ a scripted side's round */

/* A scratch copy of the position; NULL short of memory. */
static hg_state *scratch(const hg_state *s)
{
	return ck_state_try_copy(s);
}

/* NULL short of memory; a copy whose lists could not all be copied is
 * made all the same (keep() drops it). */
static hg_action *reveal_copy(const hg_action *src)
{
	hg_action *a = action_new(CK_ACT_REVEAL, src->seat);
	if (!a)
		return NULL;
	a->rev = src->rev;
	a->rev.args.takes.v = dup_array(src->rev.args.takes.v, &a->rev.args.takes.n,
					sizeof *src->rev.args.takes.v);
	a->rev.args.discards.v = dup_array(src->rev.args.discards.v, &a->rev.args.discards.n,
					   sizeof *src->rev.args.discards.v);
	attack_copy(&a->rev.attack, &src->rev.attack);
	return a;
}

/* The army's attack on `target` (8.3): from the scripted side's area with
 * the lowest number bordering it; the defender adds nothing, or all its
 * defence responses and every +1 castle it may turn. */
static void army_attack_options(const hg_state *s, int seat, int target, attack_set *set)
{
	card_ref def_resp[CK_MAX_DECK];
	int defender = s->owner[target];
	int ndef = usable_responses(s, defender, CK_SIDE_DEFENCE, target, def_resp);
	uint64_t turnable = 0;
	for (int x = 0; x < s->map->nareas; x++)
		if (s->owner[x] == defender && s->plus1[x] && ck_borders(s, x, target))
			turnable |= (uint64_t)1 << x;
	for (int dv = 0; dv <= (ndef > 0 || turnable) && !hg_alloc_lost(); dv++) {
		ck_attack a;
		memset(&a, 0, sizeof a);
		a.target = target;
		a.from = ck_lowest_numbered(s, ck_areas_of(s, seat) & s->map->areas[target].adj);
		a.castle = -1;
		if (dv)
			add_full_defence(s, &a, defender, def_resp, ndef, turnable);
		int counts[2];
		ck_dice_counts(s, seat, &a, NULL, 1, counts);
		if (counts[0] > 0 && counts[0] <= CK_MAX_LIST && counts[1] <= CK_MAX_LIST) {
			roll_attack(s, seat, &a, NULL, 1);
			push_outcomes(s, seat, set, &a);
		}
		ck_free_attack(&a);
	}
}

/* After the card: the die, and below the army's troop points its attack.
 * Takes `a` (pushed, or freed). */
static void script_roll_options(const hg_state *tmp, int seat, int against, hg_action *a,
				hg_action_list *out)
{
	if (!ck_script_rolls(tmp, seat)) {
		keep(out, a);
		return;
	}
	hg_state *t2 = scratch(tmp);
	if (!t2) {
		ck_free_action(a);
		return;
	}
	int strength = hg_ck_army_strength(t2, seat);
	int target = hg_ck_script_target(t2, seat, against);
	int die = t2->seeded ? (int)hg_prng_wide_die(&t2->dice, 6) : CK_DIE_HIDDEN;
	/* a hidden die: the faces that may attack (below the troop points)
	 * and those that may not (issue 25: every face is weighed) */
	int hidden = die == CK_DIE_HIDDEN;
	int attacks = target >= 0 && (hidden ? strength > 1 : die < strength);
	int stays = target < 0 || (hidden ? strength <= 6 : die >= strength);
	a->rev.die = die;
	if (stays)
		keep(out, reveal_copy(a));
	if (attacks && !hg_alloc_lost()) {
		attack_set set = { NULL, 0, 0 };
		army_attack_options(t2, seat, target, &set);
		int i = 0;
		for (; i < set.n && !hg_alloc_lost(); i++) {
			hg_action *b = reveal_copy(a);
			if (!b)
				break;
			ck_free_attack(&b->rev.attack);	/* (a's, copied) */
			b->rev.has_attack = 1;
			b->rev.attack = set.v[i];
			keep(out, b);
		}
		for (; i < set.n; i++)
			ck_free_attack(&set.v[i]);
		free(set.v);
	}
	ck_free_action(a);
	free(t2);
}

/* One step of a scripted event that takes no card. */
static void script_step(hg_state *tmp, int seat, int against, const ck_effect *fx, ck_play *p)
{
	hg_diags scratch_d;
	hg_diags_init(&scratch_d);
	switch (fx->verb) {
	case CK_FX_RANDOM_DISCARD:
		p->on = against;
		pick_random(tmp, against, fx->n, -1, &p->discards);
		break;
	case CK_FX_BONUS:
		if (fx->target == CK_T_SELF) {
			hg_pos nowhere = { NULL, 0, 0 };
			hg_ck_bonus_gain(tmp, seat, fx->n, NULL, nowhere, &scratch_d);
		} else {
			p->on = against;
			hg_ck_bonus_lose(tmp, against, -fx->n);
		}
		break;
	case CK_FX_FLIP:
		p->at = ck_script_flip_area(tmp, seat, against, fx);
		if (p->at >= 0)
			tmp->plus1[p->at] = fx->n > 0;
		break;
	default:
		break;
	}
	hg_diags_free(&scratch_d);
}

/* The cards Seducción may take from the victim when the Seed cannot tell. */
static int steal_candidates(const hg_state *s, int victim, card_ref *out)
{
	const ck_hand *h = &s->p[victim].hand;
	int n = 0;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < s->data->decks[r].ncards; c++)
			if (ck_hand_may(h, r, c) > 0 ||
			    (h->wild > 0 && r == s->sc->factions[victim].religion &&
			     ck_available(s, r, c) > 0)) {
				out[n].r = r;
				out[n].c = c;
				n++;
			}
	return n;
}

static void event_steps(hg_state *tmp, int seat, int against, const ck_card *k, int step,
			hg_action *a, hg_action_list *out);

/* 8.4, Seducción: each card it may take, deployed; then the rest. */
static void steal_step(hg_state *tmp, int seat, int against, const ck_card *k, int step,
		       hg_action *a, hg_action_list *out)
{
	a->rev.args.on = against;
	if (tmp->p[against].hand.size == 0) {
		event_steps(tmp, seat, against, k, step + 1, a, out);
		return;
	}
	card_ref cand[2 * CK_MAX_CARDS];
	int n = 0;
	hg_state *seeded = NULL;
	if (tmp->seeded) {
		seeded = scratch(tmp);
		if (!seeded) {
			ck_free_action(a);
			return;
		}
		int r, c = random_pick(seeded, against, &r);
		if (c >= 0) {
			cand[0].r = r;
			cand[0].c = c;
			n = 1;
		} else {
			/* the Seed cannot tell: each candidate below draws the
			 * pick again, and the record names the card */
			free(seeded);
			seeded = NULL;
		}
	}
	if (n == 0)
		n = steal_candidates(tmp, against, cand);
	for (int i = 0; i < n && !hg_alloc_lost(); i++) {
		hg_state *t2 = scratch(tmp);
		if (!t2)
			break;
		if (seeded) {
			memcpy(t2, seeded, ck_state_size(seeded));
		} else {
			if (t2->seeded)
				hg_prng_below(&t2->random, (uint32_t)t2->p[against].hand.size);
			ck_item it = make_item(t2, cand[i].r, cand[i].c);
			ck_hand_take(&t2->p[against].hand, &it, cand[i].r, &cand[i].r);
		}
		hg_action *b = reveal_copy(a);
		if (!b) {
			free(t2);
			break;
		}
		items_push(&b->rev.args.takes, make_item(t2, cand[i].r, cand[i].c));
		int place = hg_ck_script_placement(t2, seat, cand[i].r, cand[i].c, 1);
		b->rev.place = place;
		if (place == CK_PLACE_NONE) {
			const ck_card *taken = ck_card_at(t2, cand[i].r, cand[i].c);
			for (int j = 0; j < taken->nfx; j++)
				script_step(t2, seat, against, &taken->fx[j], &b->rev.args);
			ck_pile_discard(t2, cand[i].r, cand[i].c);
		} else {
			ck_deploy_card(t2, seat, cand[i].r, cand[i].c, place);
		}
		event_steps(t2, seat, against, k, step + 1, b, out);
		free(t2);
	}
	free(seeded);
	ck_free_action(a);
}

/* The steps of a revealed event from `step` on, then the roll.  Takes `a`. */
static void event_steps(hg_state *tmp, int seat, int against, const ck_card *k, int step,
			hg_action *a, hg_action_list *out)
{
	for (; step < k->nfx; step++) {
		if (k->fx[step].verb == CK_FX_STEAL) {
			steal_step(tmp, seat, against, k, step, a, out);
			return;
		}
		script_step(tmp, seat, against, &k->fx[step], &a->rev.args);
	}
	script_roll_options(tmp, seat, against, a, out);
}

static void legal_reveal_card(const hg_state *s, int seat, int r, int c, hg_action_list *out)
{
	int against = ck_against(s);
	hg_state *tmp = scratch(s);
	if (!tmp)
		return;
	ck_stack_take_at(tmp, seat, 0);
	hg_action *a = action_new(CK_ACT_REVEAL, seat);
	if (!a) {
		free(tmp);
		return;
	}
	a->rev.card = make_item(s, r, c);
	const ck_card *k = ck_card_at(s, r, c);
	if (k->type == CK_EVENT) {
		ck_pile_discard(tmp, r, c);
		event_steps(tmp, seat, against, k, 0, a, out);
	} else {
		a->rev.place = hg_ck_script_placement(tmp, seat, r, c, 0);
		ck_deploy_card(tmp, seat, r, c, a->rev.place);
		script_roll_options(tmp, seat, against, a, out);
	}
	free(tmp);
}

/* 8.3: the next card, when the record has shown it; else each card of the
 * deck that may be it. */
static void legal_reveals(const hg_state *s, int seat, hg_action_list *out)
{
	const ck_tableau *t = &s->p[seat].tab;
	if (t->stack[0].card != CK_UNKNOWN) {
		legal_reveal_card(s, seat, t->stack[0].religion, t->stack[0].card, out);
		return;
	}
	int r = s->sc->factions[seat].religion;
	for (int c = 0; c < s->data->decks[r].ncards && !hg_alloc_lost(); c++)
		if (ck_available(s, r, c) > 0)
			legal_reveal_card(s, seat, r, c, out);
}

void ck_legal(const hg_state *s, hg_action_list *out)
{
	int seat = ck_seat_to_act(s);
	if (seat < 0)
		return;
	if (s->phase == CK_PHASE_DRAW) {
		legal_draw(s, seat, out);
		return;
	}
	if (ck_scripted(s, seat)) {
		legal_reveals(s, seat, out);
		return;
	}
	keep(out, action_new(CK_ACT_PASS, seat));
	if (s->p[seat].hand.size == 0)
		return;
	legal_discards(s, seat, out);
	legal_incursions(s, seat, out);
	legal_events(s, seat, out);
	legal_attacks(s, seat, out);
}

/* The rolls and the outcome of an attack as the Seed has them, in the
 * position where it begins (the held attack's, pending.c). */
void ck_attack_roll(const hg_state *s, int seat, ck_attack *a, const ck_effect *fx, int army)
{
	roll_attack(s, seat, a, fx, army);
}

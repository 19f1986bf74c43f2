/* state.c - set-up from the tags (rule 5, Preparativos), the three piles and
 * their shuffles, and the zones a card can be in: pile, hand, a hidden stack,
 * the town, the discard, or fighting in a duel. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "enc.h"

static const char *const seat_names[ENC_MAX_SEATS] = { "P1", "P2", "P3", "P4", "P5", "P6" };

const char *enc_seat_name(int seat)
{
	return seat >= 0 && seat < ENC_MAX_SEATS ? seat_names[seat] : "?";
}

/* A seat written otherwise than P1 ... P6 (enc_find_seat): p2, or the
 * player's name. */
int enc_find_seat_named(const hg_state *s, const char *word)
{
	for (int i = 0; i < s->nseats; i++)
		if (hg_name_eq(word, seat_names[i]))
			return i;
	for (int i = 0; i < s->nseats && (size_t)i < s->sh->nnames; i++)
		if (hg_name_eq(word, s->sh->names[i]))
			return i;
	return -1;
}

const enc_card *enc_card_of(const hg_state *s, int seat, int inst)
{
	int c = s->p[seat].inst[inst].card;
	return c >= 0 ? &s->data->pool.cards[c] : NULL;
}

const char *enc_card_id(const hg_state *s, int card)
{
	return card >= 0 ? s->data->pool.cards[card].id : "?";
}

int enc_teammates(const hg_state *s, int a, int b)
{
	return s->p[a].team == s->p[b].team;
}

/* The next seat in turn order still in the game (rule 5: turn order is the
 * seat order). */
int enc_next_seat(const hg_state *s, int seat)
{
	for (int k = 1; k <= s->nseats; k++) {
		int n = (seat + k) % s->nseats;
		if (enc_alive(s, n))
			return n;
	}
	return seat;
}

/* ------------------------------------------------------------ zones */
static void sort_by_order(const enc_player *p, int *v, int n)
{
	for (int i = 1; i < n; i++) {
		int x = v[i], k = i;
		while (k > 0 && p->inst[v[k - 1]].order > p->inst[x].order) {
			v[k] = v[k - 1];
			k--;
		}
		v[k] = x;
	}
}

/* The instances of a set in index order, as a scan of inst[] finds them. */
static int set_list(enc_set set, int *out)
{
	int n = 0;
	for (; set; set &= set - 1)
		out[n++] = enc_set_first(set);
	return n;
}

/* A stack holds a few cards: counting them one by one costs less than
 * the library's popcount (no POPCNT instruction is assumed). */
static int few_count(enc_set set)
{
	int n = 0;
	for (; set; set &= set - 1)
		n++;
	return n;
}

/* The instances of a stack; a letter beyond 'z' names none. */
static enc_set stack_set(const enc_player *p, int stack)
{
	return stack >= 0 && stack < ENC_MAX_STACKS ? p->in_stack[stack] : 0;
}

/* The cards of a stack are numbered 0 to n-1 from the top whenever one
 * joins or leaves it (enc_stack_insert, leave_zone), so each goes straight
 * to its place; were the numbers anything else, sorting by them gives the
 * same list. */
int enc_stack_list(const hg_state *s, int seat, int stack, int *out)
{
	const enc_player *p = &s->p[seat];
	enc_set set = stack_set(p, stack);
	int n = few_count(set);
	uint64_t placed = 0;
	for (enc_set left = set; left; left &= left - 1) {
		int i = enc_set_first(left);
		int o = p->inst[i].order;
		if (o < 0 || o >= n)
			break;
		out[o] = i;
		placed |= (uint64_t)1 << o;
	}
	if (placed != (n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1)) {
		set_list(set, out);
		sort_by_order(p, out, n);
	}
	return n;
}

int enc_stack_count(const hg_state *s, int seat, int stack)
{
	return few_count(stack_set(&s->p[seat], stack));
}

/* A pile's instances are made in pile order (enc_setup) and no card goes
 * back to a pile: index order is pile order, top first. */
int enc_pile_list(const hg_state *s, int seat, int pile, int *out)
{
	const enc_player *p = &s->p[seat];
	return set_list(p->in_zone[ENC_Z_PILE] & p->from_pile[pile], out);
}

int enc_pile_top(const hg_state *s, int seat, int pile)
{
	const enc_player *p = &s->p[seat];
	enc_set set = p->in_zone[ENC_Z_PILE] & p->from_pile[pile];
	return set ? enc_set_first(set) : -1;
}

int enc_zone_list(const hg_state *s, int seat, enc_zone zone, int *out)
{
	const enc_player *p = &s->p[seat];
	int n = set_list(p->in_zone[zone], out);
	sort_by_order(p, out, n);
	return n;
}

int enc_zone_cards(const hg_state *s, int seat, enc_zone zone, int card, int *out)
{
	/* The same order as enc_zone_list's with the others left out: the
	 * sort is stable and starts from index order either way. */
	const enc_player *p = &s->p[seat];
	int n = 0;
	enc_set set = p->in_zone[zone];
	if (s->sh->copies)	/* every card known: the copies of `card`, or none unseen */
		set &= enc_card_copies(s, seat, card);
	for (; set; set &= set - 1) {
		int i = enc_set_first(set);
		if (card < 0 ? p->inst[i].card < 0 : p->inst[i].card == card)
			out[n++] = i;
	}
	sort_by_order(p, out, n);
	return n;
}

int hg_enc_zone_cards(const hg_state *s, int seat, int zone, int card, int *out)
{
	return enc_zone_cards(s, seat, (enc_zone)zone, card, out);
}

int hg_enc_stack_at(const hg_state *s, int seat, int stack, int pos)
{
	return enc_stack_at(s, seat, stack, pos);
}

int enc_zone_count(const hg_state *s, int seat, enc_zone zone)
{
	return enc_set_count(s->p[seat].in_zone[zone]);
}

/* The first letter no stack uses (and no used army of a war claims). */
int enc_free_stack(const hg_state *s, int seat)
{
	for (int st = 0; st < ENC_MAX_STACKS; st++) {
		if (s->p[seat].in_stack[st])
			continue;
		if (s->war.stage != ENC_WAR_NONE &&
		    ((seat == s->war.att && (st == s->war.att_used || st == s->war.att_army)) ||
		     (seat == s->war.def && (st == s->war.def_used || st == s->war.def_army))))
			continue;
		return st;
	}
	return -1;
}

/* A card numbered `gone` has left the stack: the ones below it move up, so
 * the stack is numbered 0 to n-1 from the top again (enc_stack_list). */
static void close_gap(hg_state *s, int seat, int stack, int gone)
{
	enc_player *p = &s->p[seat];
	enc_set set = stack_set(p, stack);
	for (enc_set left = set; left; left &= left - 1) {
		enc_inst *c = &p->inst[enc_set_first(left)];
		if (c->order > gone)
			c->order--;
	}
	if (set == 0 && p->stacks[stack].state != ENC_STACK_USED) {
		/* An empty stack is no stack: its letter is free again. */
		memset(&s->p[seat].stacks[stack], 0, sizeof s->p[seat].stacks[stack]);
	}
}

int enc_stack_at(const hg_state *s, int seat, int stack, int pos)
{
	const enc_player *p = &s->p[seat];
	enc_set set = stack_set(p, stack);
	if (pos == 0)
		pos = 1;
	/* The top (most references) is there when the stack is: no count. */
	if (pos < 1 || set == 0 || (pos > 1 && pos > few_count(set)))
		return -1;
	/* Numbered 0 to n-1 from the top (enc_stack_list): the card numbered
	 * pos - 1, without listing the stack. */
	for (enc_set left = set; left; left &= left - 1) {
		int i = enc_set_first(left);
		if (p->inst[i].order == pos - 1)
			return i;
	}
	int v[ENC_MAX_DECK];
	enc_stack_list(s, seat, stack, v);
	return v[pos - 1];
}

/* Reads what it needs before it writes: a store to a signed char field
 * may alias anything, and the compiler would read the rest again.  Inline
 * in its two callers, which every move of a card goes through. */
static inline HG_ALWAYS_INLINE void leave_zone(hg_state *s, int seat, int inst, enc_zone to)
{
	enc_player *p = &s->p[seat];
	enc_inst *c = &p->inst[inst];
	int from = c->zone, stack = c->stack, order = c->order, pile = c->pile;
	enc_set bit = (enc_set)1 << inst;
	p->in_zone[from] &= ~bit;
	p->in_zone[to] |= bit;
	/* Resistir (rule 4): the pile may have run out.  No card goes back to
	 * a pile, so the seat has lost by its piles only once one is empty. */
	if (from == ENC_Z_PILE && (p->in_zone[ENC_Z_PILE] & p->from_pile[pile]) == 0)
		s->loss_unchecked = 1;
	/* A card that leaves the table is new when it comes back (rule 3:
	 * "volverla oculta borra el incremento (pero permite volver a usarlo
	 * como nuevo)"); a duel card is still the army's. */
	if (!(from == ENC_Z_DUEL && to == ENC_Z_STACK) && !(from == ENC_Z_STACK && to == ENC_Z_DUEL))
		c->used_seat = -1;
	c->zone = (signed char)to;
	c->stack = -1;
	if (((1u << from | 1u << to) & (1u << ENC_Z_TOWN | 1u << ENC_Z_DUEL)) != 0)
		s->zones_settled = 0;	/* a town or a duel zone has changed */
	if (from == ENC_Z_STACK) {
		if (stack >= 0 && stack < ENC_MAX_STACKS)
			p->in_stack[stack] &= ~bit;
		close_gap(s, seat, stack, order);
	}
}

void enc_stack_insert(hg_state *s, int seat, int inst, int stack, int pos)
{
	leave_zone(s, seat, inst, ENC_Z_STACK);	/* in_zone and zone: the stack's */
	enc_player *p = &s->p[seat];
	enc_set set = stack_set(p, stack);
	if (pos <= 0 && pos != -1)
		pos = 1;
	if (pos != 1) {		/* the top needs no count */
		int n = few_count(set);
		if (pos == -1 || pos > n + 1)
			pos = n + 1;
	}
	/* Make room: the stack is numbered 0 to n-1 from the top
	 * (enc_stack_list), and the cards from pos on move one down. */
	for (; set; set &= set - 1) {
		enc_inst *k = &p->inst[enc_set_first(set)];
		if (k->order >= pos - 1)
			k->order++;
	}
	enc_inst *c = &p->inst[inst];
	c->stack = (signed char)stack;
	if (stack >= 0 && stack < ENC_MAX_STACKS)
		p->in_stack[stack] |= (enc_set)1 << inst;
	c->order = (short)(pos - 1);
}

void enc_to_zone(hg_state *s, int seat, int inst, enc_zone zone)
{
	leave_zone(s, seat, inst, zone);
	s->p[seat].inst[inst].order = (short)(s->seq++ & 0x7fff);
	if (s->seq >= 0x7fff) {
		/* Orders only compare within a zone: squeeze them back down. */
		for (int z = ENC_Z_HAND; z <= ENC_Z_DISCARD; z++) {
			if (z == ENC_Z_STACK)
				continue;
			for (int p = 0; p < s->nseats; p++) {
				int v[ENC_MAX_DECK];
				int n = enc_zone_list(s, p, (enc_zone)z, v);
				for (int i = 0; i < n; i++)
					s->p[p].inst[v[i]].order = (short)i;
			}
		}
		s->seq = ENC_MAX_DECK;
		s->p[seat].inst[inst].order = (short)s->seq++;
	}
}

/* -------------------------------------------------- hidden information */
/* How many copies of `card` pile `pile` of the seat's deck started with,
 * and how many of them are accounted for already. */
static int copies_left(const hg_state *s, int seat, int pile, int card)
{
	const enc_deck *deck = s->data->decks[s->p[seat].deck];
	int n = 0;
	for (int i = 0; i < deck->pile_n[pile]; i++)
		if (deck->pile[pile][i] == card)
			n++;
	const enc_player *p = &s->p[seat];
	for (int i = 0; i < p->ninst; i++)
		if (p->inst[i].pile == pile && p->inst[i].card == card)
			n--;
	return n;
}

/* Another pick may hold the copy of `card` that the pile of `inst` had:
 * that pick is taken to come from another pile that holds one.  1 when
 * the pile of `inst` holds a copy again. */
static int free_copy_from_pick(hg_state *s, int seat, int inst, int card)
{
	enc_player *p = &s->p[seat];
	int pile = p->inst[inst].pile;
	for (int q = 0; q < ENC_PILES; q++) {
		if (q == pile || copies_left(s, seat, q, card) <= 0)
			continue;
		for (int i = 0; i < p->ninst; i++) {
			enc_inst *o = &p->inst[i];
			if (i == inst || !o->picked || o->card != card || o->pile != pile)
				continue;
			p->from_pile[pile] &= ~((enc_set)1 << i);
			p->from_pile[q] |= (enc_set)1 << i;
			o->pile = (signed char)q;
			return 1;
		}
	}
	return 0;
}

/* Whether any card has left pile q (the only piles a card in play can
 * come from). */
static int drawn_from(const enc_player *p, int q)
{
	for (int i = 0; i < p->ninst; i++)
		if (p->inst[i].pile == q && p->inst[i].zone != ENC_Z_PILE)
			return 1;
	return 0;
}

/* Whether the replay has picked any of the player's cards (then the pile
 * of every unseen card out of the piles may be a guess: the picks passed
 * from hand to table and back). */
static int has_picks(const enc_player *p)
{
	for (int i = 0; i < p->ninst; i++)
		if (p->inst[i].picked)
			return 1;
	return 0;
}

/* An unseen card put down as '?' is one of the cards the hand held, but
 * the replay had to pick one (an unseen one), and with it the pile it came
 * from (herald-encrucijada(7), HIDDEN CARDS).  When such a card is named
 * and its pile cannot hold it, the pick is mended: another card of the
 * seat out of the piles (in the hand first, then in the stacks, then an
 * unseen one anywhere, a discarded '?' among them) may have been the one:
 * a card known to be that card, or an unseen one whose pile holds a copy;
 * the two swap what is known of them (and both are picks now).  With
 * neither, once the replay has picked any card of the seat, the card is
 * taken to come from a pile that still holds a copy and that cards have
 * left.  1 when mended (the card is then `card`), else 0. */
static int mend_unseen_pick(hg_state *s, int seat, int inst, int card)
{
	enc_player *p = &s->p[seat];
	enc_inst *c = &p->inst[inst];
	if (c->zone == ENC_Z_PILE)
		return 0;
	int other = -1;	/* the card that may have been put down instead */
	for (int pass = 0; pass < 3 && other < 0; pass++)
		for (int i = 0; i < p->ninst && other < 0; i++) {
			const enc_inst *o = &p->inst[i];
			int unseen_fits = o->card < 0 && copies_left(s, seat, o->pile, card) > 0;
			int where = pass == 0 ? o->zone == ENC_Z_HAND :
				    pass == 1 ? o->zone == ENC_Z_STACK :
				    o->zone != ENC_Z_PILE && unseen_fits;	/* a discarded '?' */
			if (i != inst && where && (o->card == card || unseen_fits))
				other = i;
		}
	int pile = -1;
	if (other >= 0) {
		enc_inst *o = &p->inst[other];
		pile = o->pile;
		enc_set both = ((enc_set)1 << inst) | ((enc_set)1 << other);
		if (o->pile != c->pile) {
			p->from_pile[c->pile] ^= both;
			p->from_pile[o->pile] ^= both;
		}
		o->pile = c->pile;
		o->card = -1;
		o->picked = 1;
	} else if (has_picks(p)) {
		for (int q = 0; q < ENC_PILES && pile < 0; q++)
			if (copies_left(s, seat, q, card) > 0 && drawn_from(p, q))
				pile = q;
		if (pile >= 0) {
			p->from_pile[c->pile] &= ~((enc_set)1 << inst);
			p->from_pile[pile] |= (enc_set)1 << inst;
		}
	}
	if (pile < 0)
		return 0;
	c->pile = (signed char)pile;
	c->card = (short)card;
	return 1;
}

/* A card put down as '?' (a pick) and named as a card the hand is known
 * to hold: the card put down may have been that one, as the record
 * cannot tell (a card revealed and taken back is known in a view, the
 * unseen ones beside it are not).  Keeping the pick would leave the hand
 * holding a card it put down, and a card it still holds nowhere; the two
 * swap what is known of them instead, as mend_unseen_pick does.  1 when
 * swapped (the card is then `card`), else 0. */
static int swap_with_hand_copy(hg_state *s, int seat, int inst, int card)
{
	enc_player *p = &s->p[seat];
	enc_inst *c = &p->inst[inst];
	if (!c->picked || c->zone == ENC_Z_PILE || c->zone == ENC_Z_HAND)
		return 0;
	for (enc_set hand = p->in_zone[ENC_Z_HAND]; hand; hand &= hand - 1) {
		int i = enc_set_first(hand);
		enc_inst *o = &p->inst[i];
		if (i == inst || o->card != card)
			continue;
		int pile = o->pile;
		if (o->pile != c->pile) {
			enc_set both = ((enc_set)1 << inst) | ((enc_set)1 << i);
			p->from_pile[c->pile] ^= both;
			p->from_pile[o->pile] ^= both;
		}
		o->pile = c->pile;
		o->card = -1;
		o->picked = 1;
		c->pile = (signed char)pile;
		c->card = (short)card;
		return 1;
	}
	return 0;
}

/* Is `card` the only card an unseen card of pile `pile` can be?  The
 * unseen cards of a pile are what it started with less the cards of it
 * named so far; when those are copies of one card, every assignment of
 * the unseen cards names it (herald-encrucijada(7), HIDDEN CARDS). */
static int only_candidate(const hg_state *s, int seat, int pile, int card)
{
	const enc_deck *deck = s->data->decks[s->p[seat].deck];
	for (int i = 0; i < deck->pile_n[pile]; i++) {
		int k = deck->pile[pile][i];
		if (k != card && copies_left(s, seat, pile, k) > 0)
			return 0;
	}
	return 1;
}

int enc_identify(hg_state *s, int seat, int inst, int card, hg_pos pos, hg_diags *d)
{
	enc_inst *c = &s->p[seat].inst[inst];
	const enc_pool *pool = &s->data->pool;
	if (c->card >= 0) {
		if (c->card == card)
			return 0;
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "enc.card-mismatch",
					  "the card is '%s', not '%s' (rule 1, B: the piles as dealt)",
					  pool->cards[c->card].id, pool->cards[card].id);
		if (s->seeded)
			hg_diag_note(dg, "the piles follow from the Seed tag '%s'", s->sh->seed);
		return -1;
	}
	if (swap_with_hand_copy(s, seat, inst, card) ||
	    (copies_left(s, seat, c->pile, card) <= 0 && c->zone != ENC_Z_PILE &&
	     !free_copy_from_pick(s, seat, inst, card) && mend_unseen_pick(s, seat, inst, card))) {
		hg_diag_add(d, HG_UNVERIFIED, pos, "enc.unseen-card",
			    "that %s's card put down unseen is '%s' cannot be verified",
			    enc_seat_name(seat), pool->cards[card].id);
		return 0;
	}
	if (copies_left(s, seat, c->pile, card) <= 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "enc.card-unavailable",
					  "%s's unseen card from pile %d cannot be '%s': the pile holds no other copy (rule 1, B)",
					  enc_seat_name(seat), c->pile + 1, pool->cards[card].id);
		hg_diag_note(dg, "the deck '%s' lists what each pile holds",
			     s->data->decks[s->p[seat].deck]->id);
		return -1;
	}
	/* Named as it is drawn, the card is what the recorder saw; named later,
	 * it was drawn unseen ('?'): unverified when the deck says it could be
	 * this card or another, legal when it can be no other (a card put
	 * down as '?' excepted: its pile is the replay's pick). */
	int certain = !c->picked && only_candidate(s, seat, c->pile, card);
	c->card = (short)card;
	if (c->zone != ENC_Z_PILE && !certain)
		hg_diag_add(d, HG_UNVERIFIED, pos, "enc.unseen-card",
			    "that %s's card drawn unseen from pile %d is '%s' cannot be verified",
			    enc_seat_name(seat), c->pile + 1, pool->cards[card].id);
	return 0;
}

/* The instance of a set (not empty) that comes first in its zone's order,
 * the first by index among equal orders: enc_zone_list's first. */
static int earliest_of(const enc_player *p, enc_set set)
{
	int first = enc_set_first(set);
	for (set &= set - 1; set; set &= set - 1) {
		int i = enc_set_first(set);
		if (p->inst[i].order < p->inst[first].order)
			first = i;
	}
	return first;
}

int enc_hand_find(const hg_state *s, int seat, int card)
{
	const enc_player *p = &s->p[seat];
	/* With a Seed every card is known, and its copies too: the card
	 * named is the earliest of those in the hand. */
	if (s->sh->copies && card >= 0) {
		enc_set copies = enc_card_copies(s, seat, card) & p->in_zone[ENC_Z_HAND];
		return copies ? earliest_of(p, copies) : -1;
	}
	/* When every card of the hand is known (with a Seed, always), the
	 * card named is its earliest copy (most hands hold one), and '?' the
	 * earliest card if all are the same: no need to sort the hand.  The
	 * copies and the unseen cards are gathered as sets, without a branch
	 * for each card. */
	enc_set copies = 0, unseen_set = 0;
	for (enc_set hand = p->in_zone[ENC_Z_HAND]; hand; hand &= hand - 1) {
		int i = enc_set_first(hand);
		copies |= (enc_set)(p->inst[i].card == card) << i;
		unseen_set |= (enc_set)(p->inst[i].card < 0) << i;
	}
	if (!unseen_set && card >= 0) {
		int match = -1;
		for (; copies; copies &= copies - 1) {
			int i = enc_set_first(copies);
			if (match < 0 || p->inst[i].order < p->inst[match].order)
				match = i;
		}
		return match;
	}
	if (!unseen_set) {
		int earliest = -1, alike = 1;
		for (enc_set hand = p->in_zone[ENC_Z_HAND]; hand; hand &= hand - 1) {
			int i = enc_set_first(hand);
			const enc_inst *c = &p->inst[i];
			if (earliest >= 0 && c->card != p->inst[earliest].card)
				alike = 0;
			if (earliest < 0 || c->order < p->inst[earliest].order)
				earliest = i;
		}
		return earliest < 0 ? -1 : alike ? earliest : -3;
	}
	int unseen = -1, first = -1, same = 1;
	int v[ENC_MAX_DECK];
	int n = enc_zone_list(s, seat, ENC_Z_HAND, v);
	for (int k = 0; k < n; k++) {
		int i = v[k];
		if (card >= 0 && p->inst[i].card == card)
			return i;
		/* An unseen card that could be the one named: from a pile that
		 * still has a copy (else any, for the diagnostic). */
		if (p->inst[i].card < 0 &&
		    (unseen < 0 || (card >= 0 && copies_left(s, seat, p->inst[unseen].pile, card) <= 0 &&
				    copies_left(s, seat, p->inst[i].pile, card) > 0)))
			unseen = i;
		if (first < 0)
			first = i;
		else if (p->inst[i].card != p->inst[first].card)
			same = 0;
	}
	if (card >= 0)
		return unseen;
	if (unseen >= 0)
		return unseen;
	if (first >= 0 && same)
		return first;
	return first >= 0 ? -3 : -1;
}

int enc_town_find(const hg_state *s, int seat, int card, int usable_only)
{
	/* The town's copies of the card, in town order (not the whole town:
	 * sorting it cost more than the rest).  One copy is the answer
	 * whether it is usable or not (the first copy is, when none is):
	 * most towns hold one copy of a card. */
	const enc_player *p = &s->p[seat];
	enc_set copies = 0;
	if (s->sh->copies) {
		copies = enc_card_copies(s, seat, card) & p->in_zone[ENC_Z_TOWN];
	} else {
		for (enc_set town = p->in_zone[ENC_Z_TOWN]; town; town &= town - 1) {
			int i = enc_set_first(town);
			copies |= (enc_set)(p->inst[i].card == card) << i;
		}
	}
	if ((copies & (copies - 1)) == 0)
		return copies ? enc_set_first(copies) : -1;
	/* The first usable copy in town order, else the first copy: the
	 * usable ones are the active copies (one look at the activity for
	 * all) whose effect has not been used. */
	enc_set usable = 0;
	if (usable_only) {
		usable = copies & enc_active_set(s, seat);
		for (enc_set left = usable; left; left &= left - 1) {
			int i = enc_set_first(left);
			if (enc_effect_used(s, seat, i))
				usable &= ~((enc_set)1 << i);
		}
	}
	return earliest_of(p, usable ? usable : copies);
}

int hg_enc_hand_find(const hg_state *s, int seat, int card)
{
	return enc_hand_find(s, seat, card);
}

int hg_enc_town_find(const hg_state *s, int seat, int card, int usable_only)
{
	return enc_town_find(s, seat, card, usable_only);
}

/* ------------------------------------------------------------ set-up */
/* NULL short of memory (the unit of work reports it). */
static enc_shared *shared_new(const hg_game_record *rec)
{
	enc_shared *sh = hg_try_calloc(1, sizeof *sh);
	if (!sh)
		return NULL;
	sh->refs = 1;
	sh->nnames = hg_record_players(rec, &sh->names);
	sh->seed = hg_record_chance_seed(rec);
	sh->seed_public = sh->seed && hg_record_tag(rec, "SeedReveal");
	sh->actions = enc_action_cache_new();
	return sh;
}

void enc_shared_free(enc_shared *sh)
{
	hg_strv_free(sh->names, sh->nnames);
	free(sh->seed);
	hg_action_cache_unref(sh->actions);
	free(sh->copies);
	free(sh);
}

/* enc_shared.copies, once the Seed has dealt every pile: 0, or -1 short of
 * memory (the unit of work reports it). */
static int index_copies(hg_state *s)
{
	size_t ncards = s->data->pool.ncards;
	enc_set *copies = hg_try_calloc((size_t)s->nseats * ncards + 1, sizeof *copies);
	if (!copies)
		return -1;
	for (int seat = 0; seat < s->nseats; seat++) {
		const enc_player *p = &s->p[seat];
		for (int i = 0; i < p->ninst; i++)
			copies[(size_t)seat * ncards + (size_t)p->inst[i].card] |= (enc_set)1 << i;
	}
	s->sh->copies = copies;
	return 0;
}

static hg_pos tag_pos(const hg_game_record *rec, const char *name)
{
	const hg_tag *t = hg_record_tag(rec, name);
	return t ? t->pos : rec->pos;
}

/* rule 1: "1 TORRE Atempus ... cada uno o por equipo".  A player whose deck
 * names no tower plays with the tower of the first teammate in seat order
 * that has one; a side without any tower cannot play (ruling 28). */
static int share_towers(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	int rc = 0;
	for (int i = 0; i < s->nseats; i++) {
		if (s->p[i].tower >= 0)
			continue;
		int holder = -1;
		for (int k = 0; k < s->nseats && holder < 0; k++)
			if (k != i && s->p[k].team == s->p[i].team && s->p[k].tower >= 0 &&
			    s->p[k].tower_seat == k)
				holder = k;
		if (holder < 0) {
			char name[] = "Deck1File";
			name[4] = (char)('1' + i);
			hg_pos at = tag_pos(rec, name);
			if (!hg_record_tag(rec, name)) {
				name[5] = '\0';
				at = tag_pos(rec, name);
			}
			hg_diag *dg = hg_diag_add(d, HG_ERROR, at, "enc.deck-no-tower",
						  "the deck of %s names no Atempus tower, and no ally's does (rule 1)",
						  enc_seat_name(i));
			hg_diag_note(dg, "\"1 TORRE Atempus ... cada uno o por equipo\": one per player, or one for the team");
			rc = -1;
			continue;
		}
		s->p[i].tower = s->p[holder].tower;
		s->p[i].tower_seat = holder;
	}
	return rc;
}

/* The variant tags (herald-encrucijada(7), TAGS).  Activation: ruling 3's
 * two readings of rule 2, Costo.  Objectives: rule 4, "Se puede establecer
 * otros objetivos, combinarlos o unos totalmente diferentes antes de
 * empezar a jugar": which of the three objectives the group plays with. */
static int parse_variants(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	int rc = 0;
	s->activation_mutual = 0;
	s->objectives = ENC_OBJ_ALL;
	const hg_tag *t = hg_record_tag(rec, "Activation");
	if (t) {
		if (strcmp(t->value, "mutual") == 0) {
			s->activation_mutual = 1;
		} else if (strcmp(t->value, "least") != 0) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "enc.tag-value",
						  "unknown Activation '%s' (ruling 3)", t->value);
			hg_diag_note(dg, "'least' (the default) or 'mutual'");
			rc = -1;
		}
	}
	t = hg_record_tag(rec, "Objectives");
	if (!t)
		return rc;
	static const struct {
		const char *word;
		unsigned bit;
	} words[] = {
		{ "conquer", ENC_OBJ_CONQUER }, { "conquistar", ENC_OBJ_CONQUER },
		{ "govern", ENC_OBJ_GOVERN }, { "gobernar", ENC_OBJ_GOVERN },
		{ "resist", ENC_OBJ_RESIST }, { "resistir", ENC_OBJ_RESIST },
	};
	unsigned chosen = 0;
	char *copy = hg_try_strdup(t->value);
	if (!copy)
		return -1;	/* (the unit of work reports it) */
	for (char *w = copy; *w;) {
		size_t len = strcspn(w, " \t,;");
		char *next = w[len] ? w + len + 1 : w + len;
		w[len] = '\0';
		if (len > 0) {
			size_t k = 0;
			while (k < sizeof words / sizeof words[0] && strcmp(w, words[k].word) != 0)
				k++;
			if (k == sizeof words / sizeof words[0]) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "enc.tag-value",
							  "unknown objective '%s' (rule 4)", w);
				hg_diag_note(dg, "the objectives are conquer, govern and resist (conquistar, gobernar, resistir)");
				rc = -1;
			} else {
				chosen |= words[k].bit;
			}
		}
		w = next;
	}
	free(copy);
	if (chosen == 0 && rc == 0) {
		hg_diag_add(d, HG_ERROR, t->pos, "enc.tag-value",
			    "the Objectives tag names no objective (rule 4)");
		rc = -1;
	}
	if (chosen)
		s->objectives = chosen;
	return rc;
}

/* Deck<n>File (loaded with the data) or Deck<n> (a bundled deck's id). */
static int seat_deck(const hg_gdata *data, const hg_game_record *rec, int seat,
		     hg_diags *d)
{
	char name[] = "Deck1";	/* seat numbers are one digit (shuffle_pile) */
	name[4] = (char)('1' + seat);
	const hg_tag *t = hg_record_tag(rec, name);
	if (data->seat_file[seat] >= 0) {
		if (t) {
			hg_diag_add(d, HG_ERROR, t->pos, "enc.deck-tags",
				    "seat %d has both a '%s' and a '%sFile' tag; give one",
				    seat + 1, name, name);
			return -1;
		}
		return data->seat_file[seat];
	}
	if (!t) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, rec->pos, "enc.deck-missing",
					  "no deck for P%d: give a '%s' or '%sFile' tag (rule 1)",
					  seat + 1, name, name);
		hg_buf b;
		hg_buf_init(&b);
		for (size_t i = 0; i < data->ndecks; i++)
			if (hg_names_find(data->deck_names, data->decks[i]->id) == (int)i)
				hg_buf_printf(&b, "%s%s", b.len ? ", " : "", data->decks[i]->id);
		if (b.len)
			hg_diag_note(dg, "bundled decks: %s", b.data);
		hg_buf_free(&b);
		return -1;
	}
	int k = hg_names_find(data->deck_names, t->value);
	if (k < 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, t->pos, "enc.deck-unknown",
					  "unknown deck '%s'", t->value);
		int v[3];
		size_t n = hg_names_suggest(data->deck_names, t->value, v, 3);
		for (size_t i = 0; i < n; i++)
			hg_diag_note(dg, "did you mean '%s'?", data->decks[v[i]]->id);
		if (data->ndecks == 0)
			hg_diag_note(dg, "with a CardFile tag only decks named by Deck<n>File tags are known");
		return -1;
	}
	return k;
}

/* Teams "P1 P3; P2 P4": seats separated by spaces or commas, teams by ';'.
 * Without the tag every player is a team of one (rule 1: "en equipos par o
 * impar, o todos contra todos"). */
static int parse_teams(hg_state *s, const hg_game_record *rec, hg_diags *d)
{
	const hg_tag *t = hg_record_tag(rec, "Teams");
	for (int i = 0; i < s->nseats; i++)
		s->p[i].team = -1;
	if (!t) {
		for (int i = 0; i < s->nseats; i++)
			s->p[i].team = i;
		s->nteams = s->nseats;
		return 0;
	}
	int team = 0, members = 0;
	char *copy = hg_try_strdup(t->value);
	if (!copy)
		return -1;	/* (the unit of work reports it) */
	char *p = copy;
	int rc = 0;
	for (;;) {
		char *end = p + strcspn(p, " \t,;");
		char sep = *end;
		*end = '\0';
		if (*p) {
			int seat = enc_find_seat(s, p);
			if (seat < 0) {
				hg_diag_add(d, HG_ERROR, t->pos, "enc.teams",
					    "unknown seat '%s' in the Teams tag", p);
				rc = -1;
			} else if (s->p[seat].team >= 0) {
				hg_diag_add(d, HG_ERROR, t->pos, "enc.teams",
					    "%s is in two teams", enc_seat_name(seat));
				rc = -1;
			} else {
				s->p[seat].team = team;
				members++;
			}
		}
		if (sep == ';' || sep == '\0') {
			if (members > 0)
				team++;
			members = 0;
		}
		if (sep == '\0')
			break;
		p = end + 1;
	}
	free(copy);
	for (int i = 0; rc == 0 && i < s->nseats; i++)
		if (s->p[i].team < 0) {
			hg_diag_add(d, HG_ERROR, t->pos, "enc.teams",
				    "%s is in no team of the Teams tag", enc_seat_name(i));
			rc = -1;
		}
	if (rc == 0 && team < 2) {
		hg_diag_add(d, HG_ERROR, t->pos, "enc.teams",
			    "the Teams tag names %d team; a game has at least two sides", team);
		rc = -1;
	}
	s->nteams = team;
	return rc;
}

/* The shuffle of one pile (herald-encrucijada(7), CHANCE): the pile's cards
 * in the order the deck file lists them, each entry repeated by its count,
 * shuffled with hg_prng_shuffle under the seed "<Seed>/P<seat>/<pile>". */
_Static_assert(ENC_MAX_SEATS <= 9 && ENC_PILES <= 9, "seat and pile numbers are one digit");

static void shuffle_pile(const char *seed, int seat, int pile, int *cards, int n)
{
	/* Seeds are short: the string is built on the stack when it fits
	 * (seat and pile are one digit each), without printf's cost. */
	char small[128];
	hg_buf b;
	hg_buf_init(&b);
	const char *name = small;
	size_t len = strlen(seed);
	if (len + sizeof "/P1/1" <= sizeof small) {
		memcpy(small, seed, len);
		memcpy(small + len, "/P1/1", sizeof "/P1/1");
		small[len + 2] = (char)('1' + seat);
		small[len + 4] = (char)('1' + pile);
	} else {
		hg_buf_printf(&b, "%s/P%d/%d", seed, seat + 1, pile + 1);
		name = b.data;
	}
	hg_prng r;
	hg_prng_seed(&r, name);
	hg_buf_free(&b);
	hg_prng_shuffle(&r, cards, (size_t)n, sizeof *cards);
}

hg_state *enc_setup(const hg_gdata *data, const hg_game_record *rec, hg_diags *d)
{
	enc_shared *sh = shared_new(rec);
	if (!sh)
		return NULL;
	int n = (int)sh->nnames;
	/* Only the live part is cleared (as copy_live copies it): the seats
	 * in play and the scalars of the exchange.  The rest, room for more
	 * seats, modifiers and waiting effects, is never read before it is
	 * written, and clearing it cost more than the set-up itself. */
	hg_state *s = hg_try_malloc(sizeof *s);
	if (!s) {
		enc_shared_unref(sh);
		return NULL;
	}
	int live = n >= 0 && n <= ENC_MAX_SEATS ? n : 0;
	/* Seat by seat: cleared in one piece, glibc took `rep stosb` for it,
	 * which callgrind (the measure of speed here) counts byte by byte;
	 * in pieces under 2 KiB it takes its vector loop. */
	memset(s, 0, offsetof(hg_state, p));
	for (int i = 0; i < live; i++)
		memset(&s->p[i], 0, sizeof s->p[i]);
	memset(&s->ex, 0, offsetof(enc_exchange, uses));
	s->data = data;
	s->sh = sh;
	if (n < ENC_MIN_SEATS || n > ENC_MAX_SEATS) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, tag_pos(rec, "Players"), "enc.players",
					  hg_ngettext("%d player; Encrucijada is for 2 to 6 (rule 1)",
						      "%d players; Encrucijada is for 2 to 6 (rule 1)", (unsigned long)n),
					  n);
		hg_diag_note(dg, "name the players in seat order: [Players \"Ana; Ben\"]");
		enc_free_state(s);
		return NULL;
	}
	s->nseats = n;
	int rc = parse_teams(s, rec, d);
	if (parse_variants(s, rec, d) != 0)
		rc = -1;
	s->seeded = s->sh->seed != NULL;
	for (int i = 0; i < n; i++) {
		int k = seat_deck(data, rec, i, d);
		if (k < 0) {
			rc = -1;
			continue;
		}
		enc_player *p = &s->p[i];
		const enc_deck *deck = data->decks[k];
		p->deck = k;
		p->tower = deck->tower;
		p->tower_seat = i;
		p->resistance = deck->tower >= 0 ? data->pool.cards[deck->tower].value : 0;
		p->tower_used_seat = -1;
		p->memo_town = ENC_NO_TOWN;
		for (int pile = 0; pile < ENC_PILES; pile++) {
			int cards[ENC_MAX_DECK];
			memcpy(cards, deck->pile[pile], sizeof(int) * (size_t)deck->pile_n[pile]);
			if (s->seeded)
				shuffle_pile(s->sh->seed, i, pile, cards, deck->pile_n[pile]);
			for (int c = 0; c < deck->pile_n[pile]; c++) {
				p->in_zone[ENC_Z_PILE] |= (enc_set)1 << p->ninst;
				p->from_pile[pile] |= (enc_set)1 << p->ninst;
				enc_inst *in = &p->inst[p->ninst++];
				in->card = (short)(s->seeded ? cards[c] : -1);
				in->pile = (signed char)pile;
				in->zone = ENC_Z_PILE;
				in->stack = -1;
				in->order = (short)c;
				in->used_seat = -1;
			}
		}
	}
	if (rc == 0)
		rc = share_towers(s, rec, d);
	if (rc != 0) {
		enc_free_state(s);
		return NULL;
	}
	s->phase = ENC_PH_SETUP;
	s->turn = 0;
	s->current = 0;
	s->winner_team = -1;
	s->war.stage = ENC_WAR_NONE;
	s->war.att_army = s->war.def_army = -1;
	s->war.att_card = s->war.def_card = -1;
	s->war.att_used = s->war.def_used = -1;
	s->seq = 1;
	s->loss_unchecked = 1;	/* a deck may have an empty pile */
	if ((s->seeded && index_copies(s) != 0) || hg_alloc_lost()) {
		enc_free_state(s);
		return NULL;
	}
	return s;
}

/* Copies the position: the scalars, and of each array only the part in
 * use (the seats in play, the modifiers, restrictions and waiting effects),
 * the rest being never read.  Copies are what legal() and the effects'
 * trials cost, and the whole state is mostly unused room. */
static void copy_live(hg_state *dst, const hg_state *src)
{
	memcpy(dst, src, offsetof(hg_state, p));
	memcpy(dst->p, src->p, sizeof src->p[0] * (size_t)src->nseats);
	memcpy(dst->mods, src->mods, sizeof src->mods[0] * (size_t)src->nmods);
	memcpy(dst->bans, src->bans, sizeof src->bans[0] * (size_t)src->nbans);
	memcpy(&dst->ex, &src->ex, offsetof(enc_exchange, uses));
	memcpy(dst->ex.uses, src->ex.uses, sizeof src->ex.uses[0] * (size_t)src->ex.n);
}

void enc_state_copy(hg_state *dst, const hg_state *src)
{
	if (dst == src)
		return;
	enc_shared *keep = dst->sh;
	copy_live(dst, src);
	dst->sh->refs++;
	if (keep)
		enc_shared_unref(keep);
}

void enc_state_scratch(hg_state *dst, const hg_state *src)
{
	copy_live(dst, src);
}

/* A new copy (zeroed first: its unused room is then defined too). */
hg_state *enc_clone(const hg_state *s)
{
	hg_state *c = hg_try_calloc(1, sizeof *c);
	if (!c)
		return NULL;	/* (the unit of work reports it) */
	copy_live(c, s);
	c->sh->refs++;
	return c;
}

void enc_free_state(hg_state *s)
{
	if (!s)
		return;
	if (s->sh)
		enc_shared_unref(s->sh);
	free(s);
}

/* cards.c - Crusader Kingdoms: hands, draw piles, discards, and the chance
 * that moves cards (shuffles, draws, random discards).
 *
 * Chance follows from the Seed tag when there is one
 * (herald-crusader-kingdoms(7), CHANCE):
 *   deck shuffles   stream "<Seed>/<deck id>/<turn>": at the start of turn
 *                   1 the deck (less any removed cards) in file order, and
 *                   at each later turn the cards outside the hands in file
 *                   order, are shuffled with hg_prng_shuffle; cards are
 *                   drawn from the first element on;
 *   dice            stream "<Seed>/dice": every die of the game in the
 *                   order rolled (the attacker's, then the defender's);
 *   random cards    stream "<Seed>/random": a random discard or theft takes
 *                   card number hg_prng_below(hand size) of the hand listed
 *                   in file order (Muslim deck first, each copy once); from
 *                   a side no player controls, the card at that position
 *                   of its face-down cards, the next one first (8.3).
 * Without a Seed the record shows the cards; what it hides ('?') is
 * followed as far as it can be and reported as unverified where a check
 * depends on it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "ck.h"

int hg_ck_hand_sure(const ck_hand *h, int religion, int card)
{
	return ck_hand_sure(h, religion, card);
}

int ck_hand_may(const ck_hand *h, int religion, int card)
{
	return h->sure[religion][card] + (h->npool ? h->pool[religion][card] : 0);
}

int ck_hand_exact(const ck_hand *h)
{
	return h->wild == 0 && h->npool == 0;
}

/* A pool known again (as many bounds as cards) is sure; an empty pool
 * says nothing.  (sumpool is the sum of pool[][]: a pool of no bounds is
 * zeroed already, as it is after every card taken from a seeded game's
 * hand.) */
static void normalise(ck_hand *h)
{
	if (h->npool == 0) {
		if (h->sumpool != 0) {
			memset(h->pool, 0, sizeof h->pool);
			h->sumpool = 0;
		}
	} else if (h->sumpool == h->npool) {
		for (int r = 0; r < CK_NRELIGIONS; r++)
			for (int c = 0; c < CK_MAX_CARDS; c++)
				h->sure[r][c] += h->pool[r][c];
		memset(h->pool, 0, sizeof h->pool);
		h->npool = h->sumpool = 0;
	}
}

void hg_ck_hand_add(ck_hand *h, int religion, int card)
{
	ck_hand_add(h, religion, card);
}

void ck_hand_add_wild(ck_hand *h)
{
	h->wild++;
	h->size++;
}

void ck_hand_remove_sure(ck_hand *h, int religion, int card)
{
	if (h->sure[religion][card] > 0) {
		h->sure[religion][card]--;
	} else {
		h->pool[religion][card]--;
		h->sumpool--;
		h->npool--;
	}
	h->size--;
	normalise(h);
}

int ck_hand_take(ck_hand *h, const ck_item *it, int own, int *religion)
{
	int order[2] = { own, !own };
	for (int i = 0; i < 2; i++) {
		int r = order[i], c = it->card[r];
		if (c >= 0 && ck_hand_sure(h, r, c) > 0) {
			ck_hand_remove_sure(h, r, c);
			*religion = r;
			return 1;
		}
	}
	for (int i = 0; i < 2; i++) {
		int r = order[i], c = it->card[r];
		if (c >= 0 && h->npool > 0 && h->pool[r][c] > 0) {
			h->pool[r][c]--;
			h->sumpool--;
			h->npool--;
			h->size--;
			*religion = r;
			normalise(h);
			return 0;
		}
	}
	*religion = ck_item_religion(it, own);
	if (h->wild > 0) {
		h->wild--;
		h->size--;
		return 0;
	}
	return -1;
}

/* An unseen card leaves: it was one of the identified cards (all of them
 * now only possibly there), or a wild one when there is no other. */
void ck_hand_take_hidden(ck_hand *h)
{
	if (h->size == 0)
		return;
	h->size--;
	if (h->size + 1 - h->wild == 0) {
		h->wild--;
		return;
	}
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < CK_MAX_CARDS; c++) {
			h->pool[r][c] += h->sure[r][c];
			h->sumpool += h->sure[r][c];
			h->npool += h->sure[r][c];
			h->sure[r][c] = 0;
		}
	h->npool--;
	normalise(h);
}

/* The deck a card leaving a hand unseen is counted in: the holder's own,
 * unless the hand surely holds no card of it. */
static int hidden_religion(const hg_state *s, int seat)
{
	int own = s->sc->factions[seat].religion;
	const ck_hand *h = &s->p[seat].hand;
	if (h->wild == 0 && h->size > 0) {
		int any = 0;
		for (int c = 0; c < s->data->decks[own].ncards; c++)
			any |= ck_hand_may(h, own, c) > 0;
		if (!any)
			return !own;
	}
	return own;
}

int ck_available(const hg_state *s, int religion, int card)
{
	int n = s->data->decks[religion].cards[card].copies - s->sc->removed[religion][card];
	for (int i = 0; i < s->nsides; i++)
		n -= ck_hand_sure(&s->p[i].hand, religion, card);
	n -= s->pile[religion].discard[card];
	for (int i = 0; i < s->nfaceup; i++)
		n -= s->faceup[i].religion == religion && s->faceup[i].card == card;
	return n - hg_ck_on_table(s, religion, card);
}

void ck_pile_discard_hidden(hg_state *s, int religion)
{
	s->pile[religion].ndiscard++;
}

int hg_ck_deck_lay_out(const ck_deck *k, const int *out, unsigned char *order)
{
	/* room for the last card's fixed store past the deck's cards */
	unsigned char v[CK_MAX_DECK + CK_MAX_COPIES];
	int n = 0;
	for (int c = 0; c < k->ncards; c++) {
		int copies = k->cards[c].copies - out[c];
		memset(v + n, c, CK_MAX_COPIES);
		n += copies > 0 ? copies : 0;
	}
	memcpy(order, v, (size_t)n);
	return n;
}

/* Rule 5: discards, undrawn cards and the P events are shuffled together,
 * each deck apart.  The new pile is every card of the deck outside the
 * hands and off the table (a scripted side's army and responses stay,
 * 8.3); its order is known when every hand is. */
void ck_piles_reshuffle(hg_state *s)
{
	int all_exact = 1;
	for (int i = 0; i < s->nsides; i++)
		all_exact &= ck_hand_exact(&s->p[i].hand);
	for (int r = 0; r < CK_NRELIGIONS; r++) {
		ck_pile *p = &s->pile[r];
		const ck_deck *k = &s->data->decks[r];
		int n = p->n + p->ndiscard;
		for (int i = 0; i < s->nfaceup; i++)
			n += s->faceup[i].religion == r;
		memset(p->discard, 0, sizeof p->discard);
		p->ndiscard = 0;
		p->head = 0;
		p->exact = s->seeded && all_exact;
		if (p->exact) {
			/* the copies out of the game, on the table and in the
			 * hands, counted in one pass over each */
			int out[CK_MAX_CARDS];
			for (int c = 0; c < CK_MAX_CARDS; c++)
				out[c] = s->sc->removed[r][c];
			for (int i = 0; i < s->nsides; i++) {
				const ck_tableau *t = &s->p[i].tab;
				for (int x = 0; x < t->narmy; x++)
					if (t->army[x].religion == r && t->army[x].card < k->ncards)
						out[t->army[x].card]++;
				for (int x = 0; x < t->nreserve; x++)
					if (t->reserve[x].religion == r && t->reserve[x].card < k->ncards)
						out[t->reserve[x].card]++;
				/* every slot, not just the deck's cards (a hand holds
				 * none of the others): a fixed count the compiler
				 * turns into vector adds */
				for (int c = 0; c < CK_MAX_CARDS; c++)
					out[c] += s->p[i].hand.sure[r][c];
			}
			n = hg_ck_deck_lay_out(k, out, p->order);
			/* after the last turn there is nothing to shuffle for */
			if (s->turn < s->sc->turns)
				hg_prng_shuffle(&s->shuffle[r][s->turn + 1], p->order, (size_t)n, 1);
		}
		p->n = n;
	}
	s->nfaceup = 0;
}

int ck_hand_random(hg_state *s, const ck_hand *h, int *religion)
{
	uint32_t pick = hg_prng_below(&s->random, (uint32_t)h->size);
	if (!ck_hand_exact(h))
		return -1;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < s->data->decks[r].ncards; c++) {
			if (pick < h->sure[r][c]) {
				*religion = r;
				return c;
			}
			pick -= h->sure[r][c];
		}
	return -1;
}

void ck_hand_describe(const hg_state *s, const ck_hand *h, hg_buf *out)
{
	int listed = 0;
	for (int r = 0; r < CK_NRELIGIONS; r++)
		for (int c = 0; c < s->data->decks[r].ncards; c++) {
			int n = ck_hand_sure(h, r, c);
			if (n == 0)
				continue;
			hg_buf_printf(out, "%s%s", listed ? ", " : "", s->data->decks[r].cards[c].id);
			if (n > 1)
				hg_buf_printf(out, " x%d", n);
			listed += n;
		}
	if (h->size > listed)
		hg_buf_printf(out, "%s? x%d", listed ? ", " : "", h->size - listed);
	if (h->size == 0)
		hg_buf_puts(out, "no cards");
}

const char *ck_item_name(const hg_state *s, const ck_item *it, int own)
{
	int r = ck_item_religion(it, own);
	return r < 0 ? "?" : s->data->decks[r].cards[it->card[r]].id;
}

static void hand_note(const hg_state *s, hg_diag *dg, int seat)
{
	hg_buf b;
	hg_buf_init(&b);
	ck_hand_describe(s, &s->p[seat].hand, &b);
	hg_diag_note(dg, "%s holds %s", s->sc->factions[seat].id, b.data);
	hg_buf_free(&b);
}

/* A card played from a hand that may not hold it. */
static void unverified_card(const hg_state *s, hg_diags *d, hg_pos pos, int seat,
			    const char *what, const char *rule)
{
	hg_diag_add(d, HG_UNVERIFIED, pos, "ck.hidden-card",
		    "cannot verify that %s held '%s': the record hides some of its cards (%s)",
		    s->sc->factions[seat].id, what, _(rule));
}

/* A card taken out of a scripted side's face-down cards (8.3): a known
 * one, or one of those the record has not shown, if a copy is free. */
static int take_from_stack(hg_state *s, int seat, const ck_item *it, const char *rule,
			   int *religion, int *card, hg_diags *d)
{
	int own = s->sc->factions[seat].religion;
	const ck_hand *h = &s->p[seat].hand;
	int order[2] = { own, !own };
	*religion = own;
	*card = -1;
	if (it->card[0] < 0 && it->card[1] < 0) {
		if (h->size == 0) {
			hg_diag_add(d, HG_ERROR, it->pos, "ck.card-not-in-hand",
				    "%s has no card left (%s)", s->sc->factions[seat].id, _(rule));
			return -1;
		}
		hg_ck_stack_take_named(s, seat, own, -1);
		return 0;
	}
	for (int i = 0; i < 2; i++) {
		int r = order[i], c = it->card[r];
		if (c >= 0 && h->sure[r][c] > 0) {
			*religion = r;
			*card = c;
			hg_ck_stack_take_named(s, seat, r, c);
			return 0;
		}
	}
	for (int i = 0; i < 2; i++) {
		int r = order[i], c = it->card[r];
		if (c >= 0 && h->wild > 0 && ck_available(s, r, c) > 0) {
			*religion = r;
			*card = c;
			hg_ck_stack_take_named(s, seat, r, c);
			unverified_card(s, d, it->pos, seat, ck_card_at(s, r, c)->id, rule);
			return 0;
		}
	}
	hg_diag *dg = hg_diag_add(d, HG_ERROR, it->pos, "ck.card-not-in-hand",
				  "card '%s' is not among %s's face-down cards (%s)",
				  ck_item_name(s, it, own), s->sc->factions[seat].id, _(rule));
	hand_note(s, dg, seat);
	return -1;
}

int ck_take_card(hg_state *s, int seat, const ck_item *it, const char *rule, int *religion,
		 int *card, hg_diags *d)
{
	if (ck_scripted(s, seat))
		return take_from_stack(s, seat, it, rule, religion, card, d);
	int own = s->sc->factions[seat].religion;
	ck_hand *h = &s->p[seat].hand;
	if (it->card[0] < 0 && it->card[1] < 0) {
		if (h->size == 0) {
			hg_diag_add(d, HG_ERROR, it->pos, "ck.card-not-in-hand",
				    "%s has no card left (%s)", s->sc->factions[seat].id, _(rule));
			return -1;
		}
		*religion = hidden_religion(s, seat);
		*card = -1;
		ck_hand_take_hidden(h);
		return 0;
	}
	/* A card surely held (nearly every one) is taken as ck_hand_take's
	 * first step takes it, without the copy of the hand kept for the
	 * other cases. */
	for (int i = 0; i < 2; i++) {
		int r = i ? !own : own, c = it->card[r];
		if (c >= 0 && ck_hand_sure(h, r, c) > 0) {
			ck_hand_remove_sure(h, r, c);
			*religion = r;
			*card = c;
			return 0;
		}
	}
	ck_hand before = *h;
	int rc = ck_hand_take(h, it, own, religion);
	/* (the name only for a diagnostic) */
	const char *name = rc == 1 ? NULL : ck_item_name(s, it, own);
	if (rc < 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, it->pos, "ck.card-not-in-hand",
					  "card '%s' is not in %s's hand (%s)", name,
					  s->sc->factions[seat].id, _(rule));
		hand_note(s, dg, seat);
		return -1;
	}
	*card = it->card[*religion];
	if (rc == 0) {
		/* Not surely held: it must at least be a copy no one else has. */
		*h = before;
		int avail = ck_available(s, *religion, *card);
		ck_hand_take(h, it, own, religion);
		/* A name both decks share (Incursion) held unseen may be the
		 * other deck's card, taken by Seducción (ruling 19): the
		 * own deck's first, else the other's when a copy of it is free
		 * and the hand may hold it. */
		int other = !*religion, oc = it->card[other];
		if (avail < 1 && oc >= 0 && ck_available(s, other, oc) > 0 &&
		    (before.wild > 0 || (before.npool > 0 && before.pool[other][oc] > 0))) {
			ck_item one = { { -1, -1 }, it->pos };
			one.card[other] = (short)oc;
			*h = before;
			ck_hand_take(h, &one, other, religion);
			*card = oc;
			avail = 1;
		}
		if (avail < 1) {
			hg_diag *dg = hg_diag_add(d, HG_ERROR, it->pos, "ck.card-not-in-hand",
						  "card '%s' is not in %s's hand: every copy is elsewhere (%s)",
						  name, s->sc->factions[seat].id, _(rule));
			*h = before;
			hand_note(s, dg, seat);
			return -1;
		}
		unverified_card(s, d, it->pos, seat, name, rule);
	}
	return 0;
}

/* The record's card against the card the Seed chose. */
static int seed_card_error(const hg_state *s, const ck_item *it, int r, int c, int victim,
			   const char *rule, hg_diags *d)
{
	int own = s->sc->factions[victim].religion;
	hg_diag_add(d, HG_ERROR, it->pos, "ck.random-seed",
		    "the Seed picks '%s' from %s's hand, not '%s' (%s)",
		    s->data->decks[r].cards[c].id, s->sc->factions[victim].id,
		    ck_item_name(s, it, own), _(rule));
	return -1;
}

/* One card at random out of the victim's hand: the Seed's pick when the
 * hand (or, for a scripted side, its face-down stack) is known, else the
 * record's.  *card -1 when it stays unseen. */
static int random_one(hg_state *s, int victim, const ck_item *it, hg_pos pos, const char *rule,
		      int *religion, int *card, hg_diags *d)
{
	ck_hand *h = &s->p[victim].hand;
	int named = it && (it->card[0] >= 0 || it->card[1] >= 0);
	int r = -1, c = -1;
	if (s->seeded && ck_scripted(s, victim)) {
		uint32_t pick = hg_prng_below(&s->random, (uint32_t)h->size);
		if (ck_stack_exact(s, victim)) {
			ck_cardref x = s->p[victim].tab.stack[pick];
			r = x.religion;
			c = x.card;
			if (named && it->card[r] != c)
				return seed_card_error(s, it, r, c, victim, rule, d);
			ck_stack_take_at(s, victim, (int)pick);
		}
	} else if (s->seeded) {
		c = ck_hand_random(s, h, &r);
		if (c >= 0) {
			if (named && it->card[r] != c)
				return seed_card_error(s, it, r, c, victim, rule, d);
			ck_item exact = { { -1, -1 }, pos };
			exact.card[r] = (short)c;
			ck_hand_take(h, &exact, r, &r);
		}
	}
	if (c < 0 && named) {
		if (ck_take_card(s, victim, it, rule, &r, &c, d) != 0)
			return -1;
	} else if (c < 0 && ck_scripted(s, victim)) {
		r = s->sc->factions[victim].religion;
		hg_ck_stack_take_named(s, victim, r, -1);
	} else if (c < 0) {
		r = hidden_religion(s, victim);
		ck_hand_take_hidden(h);
	}
	*religion = r;
	*card = c;
	return 0;
}

int ck_random_cards(hg_state *s, int victim, int n, int to, const ck_items *items, hg_pos pos,
		    const char *rule, ck_cardref *taken, hg_diags *d)
{
	ck_hand *h = &s->p[victim].hand;
	int k = n < h->size ? n : h->size;
	if (items->given && items->n != k) {
		hg_diag_add(d, HG_ERROR, items->pos, "ck.random-count",
			    hg_ngettext("%d card of %s's hand is taken at random, the record shows %d (%s)",
					"%d cards of %s's hand are taken at random, the record shows %d (%s)",
					(unsigned long)k),
			    k, s->sc->factions[victim].id, items->n, _(rule));
		return -1;
	}
	if (!items->given && !s->seeded && k > 0) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, pos, "ck.random-count",
					  hg_ngettext("without a Seed the record shows the %d card taken at random from %s's hand (%s)",
						      "without a Seed the record shows the %d cards taken at random from %s's hand (%s)",
						      (unsigned long)k),
					  k, s->sc->factions[victim].id, _(rule));
		hg_diag_note(dg, "write the card, or '?' when it stays hidden");
		return -1;
	}
	for (int i = 0; i < k; i++) {
		const ck_item *it = items->given ? &items->v[i] : NULL;
		int r = -1, c = -1;
		if (random_one(s, victim, it, pos, rule, &r, &c, d) != 0)
			return -1;
		if (taken) {
			taken[i].religion = (unsigned char)r;
			taken[i].card = c < 0 ? CK_UNKNOWN : (unsigned char)c;
		}
		if (to >= 0) {
			if (c >= 0)
				ck_hand_add(&s->p[to].hand, r, c);
			else
				ck_hand_add_wild(&s->p[to].hand);
		} else if (to == -1 && c >= 0) {
			ck_pile_discard(s, r, c);
		} else if (to == -1) {
			ck_pile_discard_hidden(s, r);
		}
	}
	return 0;
}

/* Is the written list a lone '?' standing for every card? */
static int all_hidden(const ck_items *items)
{
	return items->given && items->count < 0 && items->n == 1 &&
	       items->v[0].card[0] < 0 && items->v[0].card[1] < 0;
}

int ck_draw_cards(hg_state *s, int seat, int n, const ck_items *items, hg_pos pos,
		  const char *rule, hg_diags *d)
{
	int r = s->sc->factions[seat].religion;
	ck_pile *p = &s->pile[r];
	int k = n < p->n ? n : p->n;
	const ck_deck *deck = &s->data->decks[r];
	int lone = all_hidden(items);
	int written = items->count >= 0 ? items->count : items->n;
	if (items->given && !lone && written != k) {
		hg_diag *dg = hg_diag_add(d, HG_ERROR, items->pos, "ck.draw-count",
					  hg_ngettext("%s draws %d card here, the record shows %d (%s)",
						      "%s draws %d cards here, the record shows %d (%s)",
						      (unsigned long)k),
					  s->sc->factions[seat].id, k, written, _(rule));
		if (k < n)
			hg_diag_note(dg, "the %s draw pile holds only %d cards", deck->id, p->n);
		return -1;
	}
	if (!items->given && !s->seeded && k > 0 && !p->exact) {
		/* Nothing written and nothing to follow: the cards are hidden. */
		lone = 1;
	}
	int explicit_list = items->given && !lone && items->count < 0;
	/* A scripted side's cards stay face down in the order drawn, and the
	 * record's list is that order (8.3). */
	int scripted = ck_scripted(s, seat);
	if (p->exact) {
		/* The Seed deals the cards: the record's must be among them.
		 * They are the pile's next k (it holds that many), taken in
		 * one step: drawn one by one, the pile's counts were stored
		 * and loaded again around every card the hand took. */
		int dealt[CK_MAX_CARDS] = { 0 }, order[CK_MAX_DECK];
		const unsigned char *deal = &p->order[p->head];
		if (k > 0) {	/* (a count below none draws none) */
			p->head += k;
			p->n -= k;
		}
		for (int i = 0; i < k; i++) {
			order[i] = deal[i];
			dealt[deal[i]]++;
		}
		if (scripted) {
			ck_stack_push_n(s, seat, r, order, k);
		} else {
			ck_hand *h = &s->p[seat].hand;
			for (int i = 0; i < k; i++)
				ck_hand_add(h, r, order[i]);
		}
		for (int i = 0; explicit_list && i < items->n; i++) {
			const ck_item *it = &items->v[i];
			if (it->card[r] < 0 && it->card[!r] < 0)
				continue;
			if (scripted && it->card[r] != order[i]) {
				hg_diag_add(d, HG_ERROR, it->pos, "ck.draw-seed",
					    "the Seed deals '%s' as card %d of %s, not '%s': the cards are revealed in the order drawn (%s)",
					    deck->cards[order[i]].id, i + 1, s->sc->factions[seat].id,
					    ck_item_name(s, it, r), _(rule));
				return -1;
			}
			if (it->card[r] < 0 || dealt[it->card[r]] == 0) {
				hg_diag *dg = hg_diag_add(d, HG_ERROR, it->pos, "ck.draw-seed",
							  "the Seed does not deal '%s' to %s here (%s)",
							  ck_item_name(s, it, r), s->sc->factions[seat].id,
							  _(rule));
				hg_buf b;
				hg_buf_init(&b);
				for (int c = 0; c < deck->ncards; c++)
					for (int x = 0; x < dealt[c]; x++)
						hg_buf_printf(&b, "%s%s", b.len ? ", " : "",
							      deck->cards[c].id);
				if (b.len)
					hg_diag_note(dg, "it deals %s", b.data);
				else
					hg_diag_note(dg, "it deals nothing");
				hg_buf_free(&b);
				return -1;
			}
			dealt[it->card[r]]--;
		}
		return 0;
	}
	for (int i = 0; i < k; i++) {
		const ck_item *it = explicit_list ? &items->v[i] : NULL;
		ck_pile_draw(s, r);
		if (!it || (it->card[0] < 0 && it->card[1] < 0)) {
			if (scripted)
				hg_ck_stack_push(s, seat, r, -1);
			else
				ck_hand_add_wild(&s->p[seat].hand);
			continue;
		}
		int c = it->card[r];
		if (c < 0) {
			hg_diag_add(d, HG_ERROR, it->pos, "ck.unknown-card",
				    "'%s' is not a card of the %s deck %s draws from (%s)",
				    ck_item_name(s, it, r), deck->id, s->sc->factions[seat].id, _(rule));
			return -1;
		}
		if (ck_available(s, r, c) < 1) {
			int copies = deck->cards[c].copies - s->sc->removed[r][c];
			hg_diag_add(d, HG_ERROR, it->pos, "ck.card-exhausted",
				    hg_ngettext("no '%s' is left to draw: all %d copy of the %s deck are elsewhere (%s)",
						"no '%s' is left to draw: all %d copies of the %s deck are elsewhere (%s)",
						(unsigned long)copies),
				    deck->cards[c].id, copies, deck->id, _(rule));
			return -1;
		}
		if (scripted)
			hg_ck_stack_push(s, seat, r, c);
		else
			ck_hand_add(&s->p[seat].hand, r, c);
	}
	return 0;
}

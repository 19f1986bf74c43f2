/* verdict.c - ruling 6 of herald-kingdoms-of-crusaders(7) when hands are
 * hidden.  "No other player can gather a better army there": a challenger
 * can gather only the cards it could still hold - its hand, the deck, and
 * the cards whose place is unknown - never a card known to be in another
 * hand.  When a record hides cards (draw ?), which unseen cards sit in
 * which hidden hand is unknown, and the territory may be won under one
 * assignment of them and not under another.  The verdict is three-way:
 * won in every assignment (the claim is due), in some (a claim or its
 * absence is unverified), in none (a claim is an error).
 *
 * Everything is counted by card type (the set of kinds a card shows): the
 * unseen cards u[t], the cards each hand is known to hold, and how many
 * hidden cards each hand holds. */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "koc.h"

static unsigned total(const uint16_t p[KOC_NTYPES])
{
	unsigned n = 0;
	for (unsigned t = 0; t < KOC_NTYPES; t++)
		n += p[t];
	return n;
}

/* The cards not on the table and in no hand the record shows: the deck
 * and the hidden hands' cards, by type. */
static void unseen(const hg_state *s, uint16_t u[KOC_NTYPES])
{
	for (unsigned t = 0; t < KOC_NTYPES; t++) {
		unsigned n = s->pool[t];
		for (unsigned r = 0; r < s->nplayers; r++)
			n -= s->held[r][t];
		u[t] = (uint16_t)n;
	}
}

static unsigned hidden_of_others(const hg_state *s, unsigned q)
{
	unsigned n = 0;
	for (unsigned r = 0; r < s->nplayers; r++)
		n += r != q ? s->hidden[r] : 0;
	return n;
}

/* Some `need` cards, at most have[t] + u[t] of each type t and at most
 * `cap` of them from u, make with `counts` an army above target?  Used
 * only late in a game, when fewer unseen cards than missing ones can
 * still reach the player.  A held card is taken before an unseen one of
 * the same type: it never costs more. */
static int beat_capped(unsigned char counts[KOC_NKINDS], unsigned need, uint16_t have[KOC_NTYPES],
		       uint16_t u[KOC_NTYPES], unsigned cap, unsigned from, hg_koc_key target)
{
	if (need == 0)
		return hg_koc_key_of(counts) > target;
	for (unsigned t = from; t < KOC_NTYPES; t++) {
		uint16_t *src = have[t] ? &have[t] : cap && u[t] ? &u[t] : NULL;
		if (!src)
			continue;
		unsigned cost = src == &u[t];
		(*src)--;
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			counts[k] = (unsigned char)(counts[k] + ((t >> k) & 1u));
		int found = beat_capped(counts, need - 1, have, u, cap - cost, t, target);
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			counts[k] = (unsigned char)(counts[k] - ((t >> k) & 1u));
		(*src)++;
		if (found)
			return 1;
	}
	return 0;
}

/* A proof kept from an earlier call still holds while q's cards in the
 * sector, the target and the cards it takes from q's pool are the same. */
static int memo_holds(const hg_koc_beat_memo *m, const hg_state *s, unsigned q,
		      unsigned sector, hg_koc_key target, const uint16_t pool[KOC_NTYPES])
{
	if (!m->valid || m->target != target ||
	    m->need != KOC_ARMY - (unsigned)s->nsector[q][sector] ||
	    memcmp(m->counts, s->counts[q][sector], KOC_NKINDS) != 0)
		return 0;
	for (unsigned i = 0; i < m->proof.ntypes; i++)
		if (m->proof.take[i] > pool[m->proof.type[i]])
			return 0;
	return 1;
}

/* Could q beat target in some assignment?  Another hand's hidden cards
 * can be any unseen cards, so all of q's known hand and unseen cards are
 * open to it, but at most deck + q's hidden cards of the unseen ones at
 * once (the other hidden hands hold the rest).  `memo`, when not NULL,
 * gives and receives a proof. */
static int beat_some(const hg_state *s, unsigned q, unsigned sector, hg_koc_key target,
		     const uint16_t u[KOC_NTYPES], hg_koc_beat_memo *memo, int memo_only)
{
	unsigned char counts[KOC_NKINDS];
	memcpy(counts, s->counts[q][sector], KOC_NKINDS);
	unsigned need = KOC_ARMY - s->nsector[q][sector];
	unsigned cap = total(u) - hidden_of_others(s, q);
	if (cap >= need) {
		uint16_t pool[KOC_NTYPES];
		for (unsigned t = 0; t < KOC_NTYPES; t++)
			pool[t] = (uint16_t)(s->held[q][t] + u[t]);
		if (memo && memo_holds(memo, s, q, sector, target, pool))
			return 1;
		if (memo_only)
			return 0;
		if (!memo)
			return hg_koc_can_beat(counts, need, pool, target);
		memcpy(memo->counts, counts, KOC_NKINDS);
		memo->need = need;
		memo->target = target;
		memo->valid = hg_koc_can_beat_with(counts, need, pool, target, &memo->proof);
		return memo->valid;
	}
	if (memo_only)
		return 0;
	uint16_t have[KOC_NTYPES], left[KOC_NTYPES];
	memcpy(have, s->held[q], sizeof have);
	memcpy(left, u, sizeof left);
	return beat_capped(counts, need, have, left, cap, 1, target);
}

int hg_koc_could_beat(const hg_state *s, unsigned q, unsigned sector, hg_koc_key target)
{
	uint16_t u[KOC_NTYPES];
	unseen(s, u);
	return beat_some(s, q, sector, target, u, NULL, 0);
}

/* Could q beat target in every assignment?  Whatever the other hidden
 * hands hold, at least u[t] minus their number of cards of each type t
 * stay open to q: enough when those alone make a better army. */
static int beat_every(const hg_state *s, unsigned q, unsigned sector, hg_koc_key target,
		      const uint16_t u[KOC_NTYPES])
{
	unsigned others = hidden_of_others(s, q);
	uint16_t pool[KOC_NTYPES];
	for (unsigned t = 0; t < KOC_NTYPES; t++)
		pool[t] = (uint16_t)(s->held[q][t] + u[t] - (u[t] < others ? u[t] : others));
	unsigned char counts[KOC_NKINDS];
	memcpy(counts, s->counts[q][sector], KOC_NKINDS);
	return hg_koc_can_beat(counts, KOC_ARMY - s->nsector[q][sector], pool, target);
}

/* Could q beat target in every assignment, by a second argument: better
 * armies that share no card type must each lose a card of one of their
 * types to the other hidden hands, at a cost of (cards of that type open
 * to q) - (cards the army takes) + 1 hidden cards of that type.  When such
 * armies together cost more than the other hands hold, some army always
 * survives. */
static int beat_every_disjoint(const hg_state *s, unsigned q, unsigned sector, hg_koc_key target,
			       const uint16_t u[KOC_NTYPES])
{
	unsigned others = hidden_of_others(s, q), cost = 0;
	uint16_t pool[KOC_NTYPES];
	for (unsigned t = 0; t < KOC_NTYPES; t++)
		pool[t] = (uint16_t)(s->held[q][t] + u[t]);
	uint16_t open[KOC_NTYPES];
	memcpy(open, pool, sizeof open);
	unsigned char counts[KOC_NKINDS];
	memcpy(counts, s->counts[q][sector], KOC_NKINDS);
	unsigned need = KOC_ARMY - s->nsector[q][sector];
	hg_koc_proof proof;
	while (hg_koc_can_beat_with(counts, need, open, target, &proof)) {
		unsigned cheapest = UINT32_MAX;
		for (unsigned i = 0; i < proof.ntypes; i++) {
			unsigned t = proof.type[i];
			unsigned c = pool[t] - proof.take[i] + 1u;
			/* Only unseen cards can be in a hidden hand. */
			if (c <= u[t] && c < cheapest)
				cheapest = c;
			open[t] = 0;
		}
		if (cheapest == UINT32_MAX)
			return 1;	/* no hidden hand can take this army apart */
		cost += cheapest;
		if (cost > others)
			return 1;
	}
	return 0;
}

/* One assignment, by type: x[r][t] of the unseen cards of type t are in
 * hand r's hidden part; the rest of u is in the deck or another hidden
 * hand.  Its challengers' pools: held[q] + u - the others' x. */
typedef struct assignment {
	const hg_state *s;
	unsigned sector;
	hg_koc_key target;
	unsigned challengers;		/* bit q: q's army there is incomplete */
	uint16_t u[KOC_NTYPES];
	uint16_t x[KOC_MAX_PLAYERS][KOC_NTYPES];
	uint16_t left[KOC_NTYPES];	/* u minus every x */
	unsigned room[KOC_MAX_PLAYERS];	/* hidden cards not yet given a type */
	unsigned leaves;		/* assignments tried */
} assignment;

static void pool_of(const assignment *a, unsigned q, uint16_t pool[KOC_NTYPES])
{
	for (unsigned t = 0; t < KOC_NTYPES; t++) {
		unsigned n = a->s->held[q][t] + a->u[t];
		for (unsigned r = 0; r < a->s->nplayers; r++)
			n -= r != q ? a->x[r][t] : 0;
		pool[t] = (uint16_t)n;
	}
}

/* The first challenger who beats the target under the assignment (its
 * proof in *proof), or -1: the territory is won under it.  Hands not yet
 * full only widen the pools, so -1 stays true when they are filled. */
static int challenger_beating(const assignment *a, hg_koc_proof *proof)
{
	const hg_state *s = a->s;
	for (unsigned q = 0; q < s->nplayers; q++) {
		if (!((a->challengers >> q) & 1u))
			continue;
		uint16_t pool[KOC_NTYPES];
		pool_of(a, q, pool);
		unsigned char counts[KOC_NKINDS];
		memcpy(counts, s->counts[q][a->sector], KOC_NKINDS);
		if (hg_koc_can_beat_with(counts, KOC_ARMY - s->nsector[q][a->sector], pool, a->target,
					 proof))
			return (int)q;
	}
	return -1;
}

/* A quick search for an assignment under which the territory is won: give
 * the hidden hands, one card at a time, the scarcest card a challenger's
 * proof needs from the unseen cards. */
static int greedy_won(assignment *a)
{
	for (;;) {
		hg_koc_proof proof;
		int q = challenger_beating(a, &proof);
		if (q < 0)
			return 1;
		uint16_t pool[KOC_NTYPES];
		pool_of(a, (unsigned)q, pool);
		int best_t = -1, best_r = -1;
		for (unsigned i = 0; i < proof.ntypes; i++) {
			unsigned t = proof.type[i];
			if (!a->left[t] || proof.take[i] <= a->s->held[q][t])
				continue;
			for (unsigned r = 0; r < a->s->nplayers; r++)
				if (r != (unsigned)q && a->room[r] &&
				    (best_t < 0 || pool[t] < pool[best_t])) {
					best_t = (int)t;
					best_r = (int)r;
					break;
				}
		}
		if (best_t < 0)
			return 0;
		a->x[best_r][best_t]++;
		a->left[best_t]--;
		a->room[best_r]--;
	}
}

/* The hidden hands an assignment gives cards to, all empty yet.  With one
 * challenger only the cards the others hold together matter: its own
 * hidden cards are in its pool wherever they are, and the others' hands
 * are one removal from it, assigned as one hand. */
static void hands_to_assign(assignment *a)
{
	const hg_state *s = a->s;
	memset(a->x, 0, sizeof a->x);
	memcpy(a->left, a->u, sizeof a->left);
	for (unsigned r = 0; r < s->nplayers; r++)
		a->room[r] = s->hidden[r];
	if (__builtin_popcount(a->challengers) != 1)
		return;
	unsigned q = (unsigned)__builtin_ctz(a->challengers), into = q == 0 ? 1 : 0;
	a->room[q] = 0;
	for (unsigned r = 0; r < s->nplayers; r++)
		if (r != q && r != into) {
			a->room[into] += a->room[r];
			a->room[r] = 0;
		}
}

/* Every assignment, hand by hand, type by type: 1 when one wins the
 * territory, 0 when none does, -1 when the budget ran out first. */
static int search_won(assignment *a, unsigned r, unsigned from)
{
	const hg_state *s = a->s;
	while (r < s->nplayers && a->room[r] == 0) {
		r++;
		from = 0;
	}
	if (r == s->nplayers) {
		if (++a->leaves > KOC_VERDICT_BUDGET)
			return -1;
		hg_koc_proof proof;
		return challenger_beating(a, &proof) < 0;
	}
	for (unsigned t = from; t < KOC_NTYPES; t++) {
		if (!a->left[t])
			continue;
		a->x[r][t]++;
		a->left[t]--;
		a->room[r]--;
		int found = search_won(a, r, t);
		a->x[r][t]--;
		a->left[t]++;
		a->room[r]++;
		if (found)
			return found;
	}
	return 0;
}

int hg_koc_territory_verdict(hg_state *s, unsigned sector, int *assumed)
{
	*assumed = 0;
	int best = s->best[sector];
	if (best < 0)
		return KOC_WON_NONE;
	hg_koc_key target = s->key[best][sector];
	uint16_t u[KOC_NTYPES];
	unseen(s, u);
	/* Won in every assignment unless some challenger beats it in some.
	 * The proofs kept from earlier placements are tried first, for every
	 * challenger: one that still holds settles it without a search. */
	int beaten = 0;
	for (unsigned q = 0; q < s->nplayers && !beaten; q++)
		if (s->nsector[q][sector] < KOC_ARMY)
			beaten = beat_some(s, q, sector, target, u, &s->beat_memo[q][sector], 1);
	for (unsigned q = 0; q < s->nplayers && !beaten; q++)
		if (s->nsector[q][sector] < KOC_ARMY)
			beaten = beat_some(s, q, sector, target, u, &s->beat_memo[q][sector], 0);
	if (!beaten)
		return KOC_WON_EVERY;
	/* The pools differ between assignments only when a challenger faces
	 * another hand's hidden cards. */
	int uncertain = 0;
	for (unsigned q = 0; q < s->nplayers; q++)
		if (s->nsector[q][sector] < KOC_ARMY && hidden_of_others(s, q) > 0)
			uncertain = 1;
	if (!uncertain)
		return KOC_WON_NONE;
	for (unsigned q = 0; q < s->nplayers; q++)
		if (s->nsector[q][sector] < KOC_ARMY &&
		    (beat_every(s, q, sector, target, u) ||
		     beat_every_disjoint(s, q, sector, target, u)))
			return KOC_WON_NONE;
	assignment a;
	memset(&a, 0, sizeof a);
	a.s = s;
	a.sector = sector;
	a.target = target;
	memcpy(a.u, u, sizeof u);
	for (unsigned q = 0; q < s->nplayers; q++)
		if (s->nsector[q][sector] < KOC_ARMY)
			a.challengers |= 1u << q;
	hands_to_assign(&a);
	if (greedy_won(&a))
		return KOC_WON_SOME;
	hands_to_assign(&a);
	int found = search_won(&a, 0, 0);
	if (found < 0) {
		*assumed = 1;
		return KOC_WON_SOME;
	}
	return found ? KOC_WON_SOME : KOC_WON_NONE;
}

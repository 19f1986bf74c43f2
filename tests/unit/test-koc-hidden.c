/* test-koc-hidden.c - The Kingdoms of Crusaders, ruling 6 with hidden
 * cards (ruling 10): herald's three-way verdict on a territory (won in
 * every assignment of the hidden cards to the hidden hands, in some, in
 * none) against a brute force over every assignment of the actual cards,
 * written here without the engine's type counts; and the diagnostics the
 * claims get: none, unverified, error. */
#include "unit.h"

#include <stdio.h>
#include <string.h>

#include "koc.h"

#include "unit-koc-deck.h"

/* ------------------------------------------------------------------------
 * The brute force: every way to give each hidden hand its number of the
 * unseen cards; under each, every challenger's pool is its known hand, its
 * hidden cards and the deck (the unseen cards no hand holds), and every
 * choice of the cards it still needs is tried.
 * ------------------------------------------------------------------------ */
typedef struct brute {
	const hg_state *s;
	unsigned sector;
	hg_koc_key target;
	int unseen[512];
	unsigned nunseen;
	int owner[512];		/* per unseen card: the hidden hand, or -1: the deck */
	int won_some, lost_some;
} brute;

/* Can q, adding `need` cards from pool[from..] to `counts`, beat target? */
static int choose_beats(const brute *b, const int *pool, unsigned npool, unsigned from,
			unsigned need, unsigned char counts[KOC_NKINDS])
{
	if (need == 0)
		return hg_koc_key_of(counts) > b->target;
	for (unsigned i = from; i + need <= npool; i++) {
		unsigned m = b->s->cards->mask[pool[i]];
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			counts[k] = (unsigned char)(counts[k] + ((m >> k) & 1u));
		int yes = choose_beats(b, pool, npool, i + 1, need - 1, counts);
		for (unsigned k = 0; k < KOC_NKINDS; k++)
			counts[k] = (unsigned char)(counts[k] - ((m >> k) & 1u));
		if (yes)
			return 1;
	}
	return 0;
}

/* Is the territory won under the assignment in b->owner? */
static int won_under(const brute *b)
{
	const hg_state *s = b->s;
	for (unsigned q = 0; q < s->nplayers; q++) {
		unsigned n = s->nsector[q][b->sector];
		if (n == KOC_ARMY)
			continue;
		int pool[512];
		unsigned npool = 0;
		for (size_t c = 0; c < s->cards->n; c++)
			if (s->loc[c] == KOC_IN_HAND + q)
				pool[npool++] = (int)c;
		for (unsigned i = 0; i < b->nunseen; i++)
			if (b->owner[i] < 0 || b->owner[i] == (int)q)
				pool[npool++] = b->unseen[i];
		unsigned char counts[KOC_NKINDS] = { 0 };
		for (unsigned i = 0; i < n; i++) {
			unsigned m = s->cards->mask[s->sector[q][b->sector][i]];
			for (unsigned k = 0; k < KOC_NKINDS; k++)
				counts[k] = (unsigned char)(counts[k] + ((m >> k) & 1u));
		}
		if (choose_beats(b, pool, npool, 0, KOC_ARMY - n, counts))
			return 0;
	}
	return 1;
}

/* Gives hand r (and those after it) their hidden cards, unseen[from..]
 * onwards for the next card of hand r, `left` cards still to give r. */
static void assign(brute *b, unsigned r, unsigned from, unsigned left)
{
	const hg_state *s = b->s;
	if (b->won_some && b->lost_some)
		return;
	if (r == s->nplayers) {
		won_under(b) ? (b->won_some = 1) : (b->lost_some = 1);
		return;
	}
	if (left == 0) {
		unsigned next = r + 1;
		assign(b, next, 0, next < s->nplayers ? s->hidden[next] : 0);
		return;
	}
	for (unsigned i = from; i < b->nunseen; i++) {
		if (b->owner[i] >= 0)
			continue;
		b->owner[i] = (int)r;
		assign(b, r, i + 1, left - 1);
		b->owner[i] = -1;
	}
}

/* The verdict on a territory whose best complete army is seat `best`'s. */
static int brute_verdict(const hg_state *s, unsigned sector, unsigned best)
{
	brute b;
	memset(&b, 0, sizeof b);
	b.s = s;
	b.sector = sector;
	unsigned char masks[KOC_ARMY];
	for (unsigned i = 0; i < KOC_ARMY; i++)
		masks[i] = s->cards->mask[s->sector[best][sector][i]];
	b.target = hg_koc_army_key(masks, KOC_ARMY);
	for (size_t c = 0; c < s->cards->n; c++)
		if (s->loc[c] == KOC_UNSEEN) {
			b.owner[b.nunseen] = -1;
			b.unseen[b.nunseen++] = (int)c;
		}
	assign(&b, 0, 0, s->hidden[0]);
	return b.won_some ? (b.lost_some ? KOC_WON_SOME : KOC_WON_EVERY) : KOC_WON_NONE;
}

/* The best complete army in a sector, by key and then by who completed it
 * first (ruling 5), or -1. */
static int best_army(const hg_state *s, unsigned sector)
{
	int best = -1;
	for (unsigned p = 0; p < s->nplayers; p++) {
		if (s->nsector[p][sector] < KOC_ARMY)
			continue;
		if (best < 0 || hg_koc_army_cmp(s->key[p][sector], s->completed[p][sector],
						s->key[best][sector], s->completed[best][sector]) > 0)
			best = (int)p;
	}
	return best;
}

/* ------------------------------------------------------------------------
 * Games: every card named (free draws, no deck order), played at random
 * until the deck is nearly empty; then, before each placement, a copy of
 * the position hides a few of the cards the hands are known to hold, the
 * placement is made there, and each territory it may decide is judged.
 * ------------------------------------------------------------------------ */
static hg_action act(int verb, unsigned seat)
{
	hg_action a;
	memset(&a, 0, sizeof a);
	a.verb = verb;
	a.seat = seat;
	a.pos = (hg_pos){ "t.hgn", 1, 1 };
	return a;
}

static int random_unseen(const hg_state *s, hg_prng *r)
{
	size_t n = 0;
	for (size_t c = 0; c < s->cards->n; c++)
		n += s->loc[c] == KOC_UNSEEN;
	size_t pick = hg_prng_below(r, (uint32_t)n);
	for (size_t c = 0; c < s->cards->n; c++)
		if (s->loc[c] == KOC_UNSEEN && pick-- == 0)
			return (int)c;
	return -1;
}

/* Hides up to `most` of the known hand cards of random seats, never `keep`
 * (the card about to be placed): they become unseen, and their hands hold
 * that many hidden cards. */
static void hide_some(hg_state *s, hg_prng *r, unsigned most, int keep)
{
	unsigned n = hg_prng_below(r, most + 1);
	for (unsigned i = 0; i < n; i++) {
		unsigned q = hg_prng_below(r, s->nplayers);
		int c = -1;
		for (size_t k = 0; k < s->cards->n; k++)
			if (s->loc[k] == KOC_IN_HAND + q && (int)k != keep &&
			    hg_prng_below(r, 3) == 0) {
				c = (int)k;
				break;
			}
		if (c < 0)
			continue;
		s->loc[c] = KOC_UNSEEN;
		s->held[q][s->cards->mask[c]]--;
		s->hidden[q]++;
	}
}

typedef struct tally {
	unsigned verdicts[3];		/* by brute force: none, some, every */
	unsigned claims_unverified, claims_refused, unclaimed_unverified;
} tally;

/* After the placement on the copy `h`: every territory not won before is
 * judged by brute force, and herald's verdict (the claims it demands or
 * allows) must agree; then each kind of claim gets its diagnostic. */
static void judge(hg_state *h, const hg_state *before, tally *t)
{
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		if (before->winner[k] >= 0)
			continue;
		int best = best_army(h, k);
		if (best < 0)
			continue;
		int want = brute_verdict(h, k, (unsigned)best);
		t->verdicts[want]++;
		int got = KOC_WON_NONE;
		for (unsigned i = 0; i < h->ndecided; i++)
			if (h->decided[i].sector == k) {
				ck_assert_uint_eq(h->decided[i].seat, (unsigned)best);
				ck_assert_int_eq(h->decided[i].assumed, 0);
				got = h->decided[i].certain ? KOC_WON_EVERY : KOC_WON_SOME;
			}
		ck_assert_int_eq(got, want);
		ck_assert_int_eq(h->winner[k] >= 0, want == KOC_WON_EVERY);
		if (want == KOC_WON_EVERY)
			continue;
		/* The claim, on a copy: unverified when won in some assignments,
		 * an error when in none. */
		hg_state *c = hg_koc_clone(h);
		unsigned marker = c->markers + c->npending + 1;
		for (unsigned i = 0; i < c->ndecided; i++)
			if (c->decided[i].sector == k) {
				marker = c->claim_base + 1;
				for (unsigned j = 0; j < i; j++)
					marker += c->decided[j].certain;
			}
		hg_diags d;
		hg_diags_init(&d);
		hg_action w = act(KOC_WIN, (unsigned)best);
		w.sector = k + 1;
		w.marker = marker;
		int rc = hg_koc_apply(c, &w, &d);
		if (want == KOC_WON_SOME) {
			ck_assert_int_eq(rc, 0);
			ck_assert_uint_eq(d.nerrors, 0);
			ck_assert_uint_eq(d.nunverified, 1);
			ck_assert_str_eq(d.v[0].code, "koc.hidden-win");
			t->claims_unverified++;
		} else {
			ck_assert_int_eq(rc, -1);
			ck_assert_str_eq(d.v[0].code, "koc.not-won");
			t->claims_refused++;
		}
		hg_diags_free(&d);
		hg_koc_free_state(c);
	}
}

/* The next action without the claim of a territory won in some
 * assignments: unverified too. */
static void judge_unclaimed(const hg_state *h, tally *t)
{
	unsigned some = 0;
	for (unsigned i = 0; i < h->ndecided; i++)
		some += !h->decided[i].certain;
	if (!some || h->npending || h->phase == KOC_PHASE_OVER)
		return;
	hg_state *c = hg_koc_clone(h);
	hg_diags d;
	hg_diags_init(&d);
	hg_action_list l = { 0 };
	hg_koc_legal(c, &l);
	hg_action *next = NULL;
	for (size_t i = 0; i < l.n && !next; i++)
		if (l.v[i]->verb != KOC_WIN)
			next = l.v[i];
	ck_assert_ptr_nonnull(next);
	ck_assert_int_eq(hg_koc_apply(c, next, &d), 0);
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_uint_ge(d.nunverified, some);
	ck_assert_str_eq(d.v[0].code, "koc.hidden-win");
	t->unclaimed_unverified++;
	for (size_t i = 0; i < l.n; i++)
		hg_koc_free_action(l.v[i]);
	free(l.v);
	hg_diags_free(&d);
	hg_koc_free_state(c);
}

static void play_game(const hg_gdata *data, const char *players, const char *seed,
		      unsigned hide_most, tally *t)
{
	hg_game_record *rec = hg_record_new("t.hgn");
	hg_record_set_tag(rec, "Game", "kingdoms-of-crusaders");
	hg_record_set_tag(rec, "Players", players);
	hg_record_set_tag(rec, "First", "P1");
	hg_diags d;
	hg_diags_init(&d);
	hg_state *s = hg_koc_setup(data, rec, &d);
	ck_assert_ptr_nonnull(s);
	hg_prng r;
	hg_prng_seed(&r, seed);
	while (!hg_koc_result(s)) {
		hg_action_list l = { 0 };
		hg_koc_legal(s, &l);
		ck_assert_uint_gt(l.n, 0);
		hg_action *a = l.v[hg_prng_below(&r, (uint32_t)l.n)];
		if (a->verb == KOC_DEAL) {
			/* Five different cards: each is marked while the
			 * others are picked, then unmarked for the deal. */
			for (unsigned k = 0; k < KOC_HAND; k++) {
				a->card[k] = random_unseen(s, &r);
				s->loc[a->card[k]] = KOC_TABLE;
			}
			for (unsigned k = 0; k < KOC_HAND; k++)
				s->loc[a->card[k]] = KOC_UNSEEN;
		}
		if (a->verb == KOC_DRAW)
			a->card[0] = random_unseen(s, &r);
		size_t deck = s->cards->n - s->dealt;
		if (a->verb == KOC_PLACE && deck <= 6) {
			hg_state *h = hg_koc_clone(s);
			hide_some(h, &r, hide_most, a->card[0]);
			hg_diags dh;
			hg_diags_init(&dh);
			ck_assert_int_eq(hg_koc_apply(h, a, &dh), 0);
			ck_assert_uint_eq(dh.nerrors, 0);
			judge(h, s, t);
			judge_unclaimed(h, t);
			hg_diags_free(&dh);
			hg_koc_free_state(h);
		}
		ck_assert_int_eq(hg_koc_apply(s, a, &d), 0);
		for (size_t i = 0; i < l.n; i++)
			hg_koc_free_action(l.v[i]);
		free(l.v);
	}
	ck_assert_uint_eq(d.nerrors, 0);
	ck_assert_uint_eq(d.nunverified, 0);
	hg_diags_free(&d);
	hg_koc_free_state(s);
	hg_record_free(rec);
}

START_TEST(verdict_matches_brute_force)
{
	hg_gdata *data = forty_cards();
	tally t;
	memset(&t, 0, sizeof t);
	char seed[32];
	for (int i = 0; i < 200; i++) {
		snprintf(seed, sizeof seed, "hidden-verdict-%d", i);
		play_game(data, i % 3 ? "A; B" : "A; B; C", seed, i % 3 ? 4 : 3, &t);
	}
	/* Every verdict occurs, and so does each kind of claim. */
	ck_assert_uint_gt(t.verdicts[KOC_WON_NONE], 20);
	ck_assert_uint_gt(t.verdicts[KOC_WON_SOME], 5);
	ck_assert_uint_gt(t.verdicts[KOC_WON_EVERY], 20);
	ck_assert_uint_gt(t.claims_unverified, 5);
	ck_assert_uint_gt(t.claims_refused, 20);
	ck_assert_uint_gt(t.unclaimed_unverified, 2);
	hg_koc_unload(data);
}
END_TEST

/* Records that hide every hand (each draw '?'): the assignments are often
 * too many to enumerate.  Then herald assumes "some" - never an error -
 * and the claim's diagnostic says so. */
START_TEST(verdict_assumes_past_budget)
{
	hg_gdata *data = shipped();
	unsigned assumed = 0, noted = 0;
	for (int g = 0; g < 20; g++) {
		hg_game_record *rec = hg_record_new("t.hgn");
		hg_record_set_tag(rec, "Game", "kingdoms-of-crusaders");
		hg_record_set_tag(rec, "Players", "A; B");
		hg_record_set_tag(rec, "First", "P1");
		hg_diags d;
		hg_diags_init(&d);
		hg_state *s = hg_koc_setup(data, rec, &d);
		hg_prng r;
		char seed[32];
		snprintf(seed, sizeof seed, "assumed-%d", g);
		hg_prng_seed(&r, seed);
		while (!hg_koc_result(s)) {
			hg_action_list l = { 0 };
			hg_koc_legal(s, &l);
			/* '?' draws (listed first), any placement or claim. */
			hg_action *a = l.v[hg_prng_below(&r, (uint32_t)l.n)];
			if (a->verb == KOC_DRAW)
				a = l.v[0];
			size_t before = d.n;
			ck_assert_int_eq(hg_koc_apply(s, a, &d), 0);
			for (size_t i = before; i < d.n; i++)
				if (strcmp(d.v[i].code, "koc.hidden-win") == 0)
					for (size_t k = 0; k < d.v[i].nnotes; k++)
						noted += strstr(d.v[i].notes[k], "assumed") != NULL;
			for (unsigned k = 0; k < KOC_SECTORS; k++) {
				if (s->best[k] < 0 || s->winner[k] >= 0)
					continue;
				int as;
				int v = hg_koc_territory_verdict(s, k, &as);
				if (as) {
					ck_assert_int_eq(v, KOC_WON_SOME);
					assumed++;
				}
			}
			for (size_t i = 0; i < l.n; i++)
				hg_koc_free_action(l.v[i]);
			free(l.v);
		}
		ck_assert_uint_eq(d.nerrors, 0);
		hg_diags_free(&d);
		hg_koc_free_state(s);
		hg_record_free(rec);
	}
	ck_assert_uint_gt(assumed, 5);
	ck_assert_uint_gt(noted, 0);
	hg_koc_unload(data);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("kingdoms-of-crusaders-hidden");
	TCase *tc = tcase_create("verdict");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, verdict_matches_brute_force);
	tcase_add_test(tc, verdict_assumes_past_budget);
	suite_add_tcase(s, tc);
	return s;
}

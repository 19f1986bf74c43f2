/* koc-early-win.c - how fast is the proof of an early win in The Kingdoms
 * of Crusaders (ruling 6 of herald-kingdoms-of-crusaders(7))?
 *
 *   make bench-koc && ./bench/koc-early-win [DECK.yaml] [CHECKS]
 *
 * Each check asks hg_koc_can_beat whether a player holding 0 to 3 cards in
 * a sector can still beat a complete army there, the unseen pool being
 * every other card of the full deck: one deck (2 players; 56 cards
 * shipped) and two decks mixed (3-4 players; 112).  The armies are random, and half
 * of them are strong (banner and helmet on every card), where the search
 * has most to prove.  Prints microseconds per check (mean, 99th
 * percentile, slowest), apart for the checks that prove a win and those
 * that find a better army.  Not a test: the figure goes into the notes. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "koc.h"

#define DEFAULT_DECK HERALD_SRCDATADIR "/kingdoms-of-crusaders/deck.yaml"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Draws `n` distinct cards out of the pool (counts by type), so that the
 * armies on the table really leave the pool. */
static void take(hg_prng *r, const unsigned char *masks, size_t ncards, unsigned char *used,
		 unsigned n, unsigned char *out, int strong)
{
	for (unsigned i = 0; i < n;) {
		size_t c = hg_prng_below(r, (uint32_t)ncards);
		if (used[c])
			continue;
		if (strong && (masks[c] & 0x18u) != 0x18u && hg_prng_below(r, 8))
			continue;
		used[c] = 1;
		out[i++] = masks[c];
	}
}

static int by_time(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void report(const char *what, double *t, long n)
{
	if (n == 0)
		return;
	double total = 0;
	for (long i = 0; i < n; i++)
		total += t[i];
	qsort(t, (size_t)n, sizeof *t, by_time);
	printf("  %-22s %8ld checks %8.3f us mean %8.3f us p99 %8.1f us max\n", what, n,
	       total / (double)n * 1e6, t[(n - 1) * 99 / 100] * 1e6, t[n - 1] * 1e6);
}

static void run(const char *what, const hg_koc_cards *cards, long checks)
{
	hg_prng r;
	hg_prng_seed(&r, "bench-koc-early-win");
	unsigned char *used = malloc(cards->n);
	double *proved = malloc((size_t)checks * sizeof *proved);
	double *beaten = malloc((size_t)checks * sizeof *beaten);
	long nproved = 0, nbeaten = 0;
	for (long i = 0; i < checks; i++) {
		memset(used, 0, cards->n);
		unsigned char winner[KOC_ARMY], have[KOC_ARMY], counts[KOC_NKINDS];
		take(&r, cards->mask, cards->n, used, KOC_ARMY, winner, (int)(i & 1));
		unsigned nhave = hg_prng_below(&r, KOC_ARMY);
		take(&r, cards->mask, cards->n, used, nhave, have, 0);
		uint16_t pool[KOC_NTYPES] = { 0 };
		for (size_t c = 0; c < cards->n; c++)
			if (!used[c])
				pool[cards->mask[c]]++;
		hg_koc_count(have, nhave, counts);
		hg_koc_key target = hg_koc_army_key(winner, KOC_ARMY);
		double t0 = now();
		int found = hg_koc_can_beat(counts, KOC_ARMY - nhave, pool, target);
		double dt = now() - t0;
		if (found)
			beaten[nbeaten++] = dt;
		else
			proved[nproved++] = dt;
	}
	printf("%s, %zu cards:\n", what, cards->n);
	report("no better army (win):", proved, nproved);
	report("a better army exists:", beaten, nbeaten);
	free(used);
	free(proved);
	free(beaten);
}

int main(int argc, char **argv)
{
	const char *deck = argc > 1 ? argv[1] : DEFAULT_DECK;
	long checks = argc > 2 ? atol(argv[2]) : 200000;
	if (checks <= 0) {
		fprintf(stderr, "usage: koc-early-win [DECK.yaml] [CHECKS]\n");
		return 2;
	}
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = hg_koc_deck_load(deck, &d);
	if (!g) {
		hg_buf b;
		hg_buf_init(&b);
		for (size_t i = 0; i < d.n; i++)
			hg_diag_format(&d.v[i], &b, 0);
		fputs(b.data ? b.data : "koc-early-win: cannot load the deck\n", stderr);
		hg_buf_free(&b);
		hg_diags_free(&d);
		return 1;
	}
	printf("koc-early-win: the proof of an early win, deck %s\n", deck);
	run("one deck (2 players)", &g->one, checks);
	run("two decks mixed (3-4 players)", &g->two, checks);
	hg_koc_unload(g);
	hg_diags_free(&d);
	return 0;
}

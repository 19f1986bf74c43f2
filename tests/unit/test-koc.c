/* test-koc.c - The Kingdoms of Crusaders: squads and the ranking of armies
 * at every level (against a literal reading of the rule sheet), the proof
 * of an early win (against brute force), the deck loader's diagnostics,
 * the action syntax, and whole games through hg_koc_class. */
#include "unit.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "koc.h"
#include "unit-koc-deck.h"

enum { L = 1, B = 2, S = 4, H = 8, N = 16 };	/* lance bow swords helmet banner */


/* ------------------------------------------------------------------------
 * The session's cache of data loaded from records' own files: keyed by the
 * files' identity, bounded, and deaf to tags that only end in "File".
 * ------------------------------------------------------------------------ */
static void copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	ck_assert_ptr_nonnull(in);
	ck_assert_ptr_nonnull(out);
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
	fclose(in);
	ck_assert_int_eq(fclose(out), 0);
}

/* The data the session gives a record in `dir` with the tag name=value
 * (NULL when it gives none, with diagnostics). */
static const hg_gdata *prepared(hg_session *s, const char *dir, const char *name,
				const char *value)
{
	char file[256];
	snprintf(file, sizeof file, "%s/game.hgn", dir);
	hg_game_record *rec = hg_record_new(file);
	hg_record_set_tag(rec, "Game", "kingdoms-of-crusaders");
	hg_record_set_tag(rec, name, value);
	const hg_game_class *cls;
	const hg_gdata *data = NULL;
	hg_diags d;
	hg_diags_init(&d);
	int rc = hg_session_prepare(s, rec, &cls, &data, &d);
	ck_assert_int_eq(rc == 0, d.n == 0);
	hg_diags_free(&d);
	hg_record_free(rec);
	return data;
}

START_TEST(session_cache)
{
	char dir[] = "/tmp/herald-cache-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256], sub[256], other[256];
	for (int i = 0; i < 40; i++) {
		snprintf(path, sizeof path, "%s/d%d.yaml", dir, i);
		copy_file(DECK_PATH, path);
	}
	snprintf(path, sizeof path, "%s/alias.yaml", dir);
	ck_assert_int_eq(symlink("d0.yaml", path), 0);
	snprintf(sub, sizeof sub, "%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0700), 0);

	/* one file by four names, from two directories: one load */
	hg_session *s = hg_session_new(NULL);
	const hg_gdata *d0 = prepared(s, dir, "DeckFile", "d0.yaml");
	ck_assert_ptr_nonnull(d0);
	ck_assert_ptr_eq(prepared(s, dir, "DeckFile", "alias.yaml"), d0);
	ck_assert_ptr_eq(prepared(s, dir, "DeckFile", "./sub/../d0.yaml"), d0);
	ck_assert_uint_eq(hg_session_loaded(s), 1);
	/* outside the record's directory, until the user allows it (the
	 * failure is kept, as a failure of its own) */
	ck_assert_ptr_null(prepared(s, sub, "DeckFile", "../d0.yaml"));
	ck_assert_uint_eq(hg_session_loaded(s), 2);
	hg_session_allow_data_path(s, dir);
	ck_assert_ptr_eq(prepared(s, sub, "DeckFile", "../d0.yaml"), d0);
	ck_assert_uint_eq(hg_session_loaded(s), 2);
	ck_assert_ptr_ne(prepared(s, dir, "DeckFile", "d1.yaml"), d0);
	ck_assert_uint_eq(hg_session_loaded(s), 3);

	/* a tag that only ends in "File" loads nothing of its own */
	const hg_gdata *dflt = prepared(s, dir, "NoteFile", "d2.yaml");
	ck_assert_ptr_nonnull(dflt);
	ck_assert_ptr_eq(prepared(s, dir, "NoteFile", "d3.yaml"), dflt);
	ck_assert_ptr_eq(prepared(s, dir, "ScenarioFile", "d4.yaml"), dflt);
	ck_assert_uint_eq(hg_session_loaded(s), 4);

	/* forty decks: at most HG_SESSION_MAX_OWN_DATA kept, the defaults
	 * besides */
	for (int i = 0; i < 40; i++) {
		snprintf(other, sizeof other, "d%d.yaml", i);
		ck_assert_ptr_nonnull(prepared(s, dir, "DeckFile", other));
		ck_assert_uint_le(hg_session_loaded(s), HG_SESSION_MAX_OWN_DATA + 1);
	}
	ck_assert_uint_eq(hg_session_loaded(s), HG_SESSION_MAX_OWN_DATA + 1);
	hg_session_free(s);

	for (int i = 0; i < 40; i++) {
		snprintf(path, sizeof path, "%s/d%d.yaml", dir, i);
		unlink(path);
	}
	snprintf(path, sizeof path, "%s/alias.yaml", dir);
	unlink(path);
	rmdir(sub);
	rmdir(dir);
}
END_TEST

/* A file that failed to load is not read again: each record naming it gets
 * the diagnostics again, at its own tag. */
START_TEST(session_cache_keeps_failures)
{
	static const char text[] =
		"[Game \"kingdoms-of-crusaders\"]\n[Date \"????.??.??\"]\n[Players \"Ana; Ben\"]\n"
		"[DeckFile \"missing.yaml\"]\n[Result \"*\"]\n\n*\n\n"
		"[Game \"kingdoms-of-crusaders\"]\n[Event \"x\"]\n[Date \"????.??.??\"]\n"
		"[Players \"Ana; Ben\"]\n[DeckFile \"missing.yaml\"]\n[Result \"*\"]\n\n*\n";
	hg_session *s = hg_session_new(NULL);
	hg_parser *p = hg_parser_open_mem("/nonexistent-dir/games.hgn", text, strlen(text));
	hg_game_record *g;
	hg_diags d;
	hg_diags_init(&d);
	unsigned lines[] = { 4, 13 };
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(hg_parser_next(p, &g, &d), 1);
		ck_assert_uint_eq(d.n, 0);
		const hg_game_class *cls;
		const hg_gdata *data;
		ck_assert_int_eq(hg_session_prepare(s, g, &cls, &data, &d), -1);
		ck_assert_uint_eq(d.n, 1);
		ck_assert_str_eq(d.v[0].code, "data.file");
		ck_assert_str_eq(d.v[0].file, "/nonexistent-dir/games.hgn");
		ck_assert_uint_eq(d.v[0].line, lines[k]);
		ck_assert_uint_eq(d.v[0].col, 11);
		ck_assert_uint_eq(d.v[0].nnotes, 2);
		ck_assert_uint_eq(hg_session_loaded(s), 1);
		hg_diags_clear(&d);
		hg_record_free(g);
	}
	hg_diags_free(&d);
	hg_parser_close(p);
	hg_session_free(s);
}
END_TEST

/* ------------------------------------------------------------------------
 * A literal reading of 'Armies and domination in territories' (ruling 5),
 * written independently of army.c: squads as lists of kinds, strongest
 * first, compared step by step.  > 0 when army a is better.
 * ------------------------------------------------------------------------ */
static void ref_counts(const unsigned char *army, int counts[5])
{
	memset(counts, 0, 5 * sizeof *counts);
	for (int i = 0; i < 4; i++)
		for (int k = 0; k < 5; k++)
			if (army[i] & (1 << k))
				counts[k]++;
}

static int ref_squads(const int counts[5], int size, int kinds[5])
{
	int n = 0;
	for (int k = 4; k >= 0; k--)
		if (counts[k] == size)
			kinds[n++] = k;
	return n;
}

static int ref_cmp(const unsigned char *a, const unsigned char *b)
{
	int ca[5], cb[5];
	ref_counts(a, ca);
	ref_counts(b, cb);
	for (int size = 4; size >= 2; size--) {
		int ka[5], kb[5];
		int na = ref_squads(ca, size, ka), nb = ref_squads(cb, size, kb);
		if (na != nb)
			return na > nb ? 1 : -1;	/* more squads of this size */
		for (int i = 0; i < na; i++)
			if (ka[i] != kb[i])
				return ka[i] > kb[i] ? 1 : -1;	/* the most powerful, then the next */
	}
	int ka[5], kb[5];
	int na = ref_squads(ca, 1, ka), nb = ref_squads(cb, 1, kb);
	for (int i = 0; i < na && i < nb; i++)
		if (ka[i] != kb[i])
			return ka[i] > kb[i] ? 1 : -1;	/* the most powerful single symbol */
	if (na != nb)
		return na > nb ? 1 : -1;	/* a further single symbol */
	return 0;
}

static hg_koc_key key4(const unsigned char *army)
{
	return hg_koc_army_key(army, 4);
}

/* ------------------------------------------------------------------ squads */
START_TEST(squads_of_an_army)
{
	/* lance on all four (regiment), bow on three (battalion), swords on
	 * two (company), helmet once, banner never. */
	unsigned char army[4] = { L | B | S, L | B | S, L | B | H, L };
	hg_koc_key k = key4(army);
	ck_assert_uint_eq(hg_koc_key_kinds(k, 4), L);
	ck_assert_uint_eq(hg_koc_key_kinds(k, 3), B);
	ck_assert_uint_eq(hg_koc_key_kinds(k, 2), S);
	ck_assert_uint_eq(hg_koc_key_kinds(k, 1), H);
	hg_buf b;
	hg_buf_init(&b);
	hg_koc_key_describe(k, &b);
	ck_assert_str_eq(b.data, "regiment lance; battalion bow; company swords; single helmet");
	hg_buf_clear(&b);
	unsigned char two[4] = { L | B, L | B, L | B, L | B };
	hg_koc_key_describe(key4(two), &b);
	ck_assert_str_eq(b.data, "regiments bow, lance");
	hg_buf_clear(&b);
	unsigned char singles[4] = { L, B, S, N };
	hg_koc_key_describe(key4(singles), &b);
	ck_assert_str_eq(b.data, "singles banner, swords, bow, lance");
	hg_buf_free(&b);
}
END_TEST

/* hg_koc_key_of adds up what each kind brings; the key as its layout
 * describes it (koc.h, army.c: the kinds of each squad size as a set, and
 * how many there are) for every count of every kind, 0 to 5. */
START_TEST(key_is_the_sum_over_kinds)
{
	for (unsigned code = 0; code < 6 * 6 * 6 * 6 * 6; code++) {
		unsigned char counts[KOC_NKINDS];
		unsigned by_size[5] = { 0 };
		for (unsigned k = 0, c = code; k < KOC_NKINDS; k++, c /= 6) {
			counts[k] = (unsigned char)(c % 6);
			by_size[counts[k] > 4 ? 4 : counts[k]] |= 1u << k;
		}
		hg_koc_key want = (hg_koc_key)__builtin_popcount(by_size[4]) << 26 |
				  (hg_koc_key)by_size[4] << 21 |
				  (hg_koc_key)__builtin_popcount(by_size[3]) << 18 |
				  (hg_koc_key)by_size[3] << 13 |
				  (hg_koc_key)__builtin_popcount(by_size[2]) << 10 |
				  (hg_koc_key)by_size[2] << 5 | (hg_koc_key)by_size[1];
		ck_assert_uint_eq(hg_koc_key_of(counts), want);
		for (unsigned size = 1; size <= 4; size++)
			ck_assert_uint_eq(hg_koc_key_kinds(want, size), by_size[size]);
	}
}
END_TEST

START_TEST(card_symbols_print_weakest_first)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_koc_mask_describe(N | L | H, &b);
	ck_assert_str_eq(b.data, "lance helmet banner");
	hg_buf_free(&b);
}
END_TEST

/* ------------------------------------------------------------------ ranking */
/* One pair of armies per level of ruling 5: `better` beats `worse`, and the
 * level that separates them is `level`. */
static const struct level_case {
	int level;
	unsigned char better[4], worse[4];
	const char *why;
} level_cases[] = {
	{ 1, { L, L, L, L | B }, { N | H, N | H, N | H, S }, "one regiment beats none, however strong" },
	{ 1, { L | B, L | B, L | B, L | B }, { N, N, N, N | H }, "two regiments beat one" },
	{ 2, { B, B, B, B }, { L, L, L, L }, "regiment of bows beats regiment of lances" },
	{ 2, { N | L, N | B, N | S, N }, { H | S, H | S, H | B, H }, "banner regiment beats helmet regiment" },
	{ 2, { N | H, N | H, N | H, N | H }, { N | S, N | S, N | S, N | S }, "second regiment decides" },
	{ 3, { S, S, S, L }, { N | H, N | H, L, B }, "one battalion beats none" },
	{ 3, { L | B, L | B, L | B, S }, { N, N, N, S }, "two battalions beat one" },
	{ 4, { B, B, B, L }, { L, L, L, N }, "battalion of bows beats battalion of lances" },
	{ 4, { N | B, N | B, N | B, S }, { N | L, N | L, N | L, S }, "second battalion decides" },
	{ 5, { L, L, B, B }, { N, N, H, S }, "two companies beat one" },
	{ 5, { S, S, L, B }, { N, H, S, B }, "one company beats none" },
	{ 6, { H, H, L, B }, { S, S, B, N }, "company of helmets beats company of swords" },
	{ 6, { N | S, N | S, L, B }, { N | B, N | B, L, S }, "second company decides" },
	{ 7, { L, B, S, N }, { L, B, S, H }, "the most powerful single symbol" },
	{ 7, { L, L, N, B }, { L, L, H, S }, "banner single beats helmet single" },
	{ 7, { N, L, B | S, B | S }, { N, B | S, B, S }, "same squads; banner alike, lance against none" },
};

START_TEST(ranking_every_level)
{
	const struct level_case *c = &level_cases[_i];
	hg_koc_key kb = key4(c->better), kw = key4(c->worse);
	ck_assert_msg(kb > kw, "%s", c->why);
	ck_assert_int_eq(hg_koc_key_level(kb, kw), c->level);
	ck_assert_int_eq(ref_cmp(c->better, c->worse), 1);
	/* Who completed first does not matter once the keys differ. */
	ck_assert_int_gt(hg_koc_army_cmp(kb, 9, kw, 1), 0);
	ck_assert_int_lt(hg_koc_army_cmp(kw, 1, kb, 9), 0);
}
END_TEST

START_TEST(ranking_all_alike_first_to_complete)
{
	/* Different cards, the same squads and singles: the army whose fourth
	 * card was placed first wins (the last step of ruling 5). */
	unsigned char a[4] = { L | B, S, H, N }, b[4] = { L, B, S, H | N };
	ck_assert_uint_eq(key4(a), key4(b));
	ck_assert_int_eq(hg_koc_key_level(key4(a), key4(b)), 0);
	ck_assert_int_eq(ref_cmp(a, b), 0);
	ck_assert_int_gt(hg_koc_army_cmp(key4(a), 3, key4(b), 7), 0);
	ck_assert_int_lt(hg_koc_army_cmp(key4(a), 7, key4(b), 3), 0);
	ck_assert_int_eq(hg_koc_army_cmp(key4(a), 3, key4(b), 3), 0);
}
END_TEST

static unsigned char random_card(hg_prng *r)
{
	return (unsigned char)(1 + hg_prng_below(r, 31));
}

/* The comparison is a strict weak order (irreflexive, transitive, with
 * transitive incomparability) and agrees with the literal reading. */
START_TEST(ranking_is_a_strict_weak_order)
{
	enum { ARMIES = 300 };
	static unsigned char army[ARMIES][4];
	static hg_koc_key key[ARMIES];
	hg_prng r;
	hg_prng_seed(&r, "koc-weak-order");
	for (int i = 0; i < ARMIES; i++) {
		for (int k = 0; k < 4; k++)
			army[i][k] = random_card(&r);
		key[i] = key4(army[i]);
	}
	int ties = 0;
	for (int i = 0; i < ARMIES; i++) {
		ck_assert(!(key[i] < key[i]));
		for (int j = 0; j < ARMIES; j++) {
			int c = key[i] > key[j] ? 1 : key[i] < key[j] ? -1 : 0;
			ck_assert_int_eq(c, ref_cmp(army[i], army[j]));
			ck_assert_int_eq(hg_koc_key_level(key[i], key[j]) == 0, c == 0);
			ties += i != j && c == 0;
		}
	}
	for (int i = 0; i < 60; i++)
		for (int j = 0; j < 60; j++)
			for (int k = 0; k < 60; k++) {
				int lij = ref_cmp(army[i], army[j]) < 0, ljk = ref_cmp(army[j], army[k]) < 0;
				if (lij && ljk)
					ck_assert_int_lt(ref_cmp(army[i], army[k]), 0);
				int eij = ref_cmp(army[i], army[j]) == 0, ejk = ref_cmp(army[j], army[k]) == 0;
				if (eij && ejk)
					ck_assert_int_eq(ref_cmp(army[i], army[k]), 0);
				/* the keys order exactly as the reference */
				if (lij && ljk)
					ck_assert(key[i] < key[k]);
			}
	/* The sample must contain ties, or the tie part tested nothing. */
	ck_assert_int_gt(ties, 0);
	/* With the completion order the comparison is total and antisymmetric. */
	for (int i = 0; i < ARMIES; i++)
		for (int j = 0; j < ARMIES; j++) {
			int c = hg_koc_army_cmp(key[i], (unsigned)i, key[j], (unsigned)j);
			ck_assert_int_eq(c, -hg_koc_army_cmp(key[j], (unsigned)j, key[i], (unsigned)i));
			ck_assert_int_eq(c == 0, i == j);
		}
}
END_TEST

/* ------------------------------------------------------------------ early win */
/* Brute force: every set of `need` distinct cards of the pool. */
static int brute_beat(const unsigned char *have, unsigned nhave, const unsigned char *pool,
		      unsigned npool, unsigned need, hg_koc_key target)
{
	unsigned idx[4];
	if (need == 0)
		return hg_koc_army_key(have, nhave) > target;
	if (need > npool)
		return 0;
	for (unsigned i = 0; i < need; i++)
		idx[i] = i;
	for (;;) {
		unsigned char army[4];
		memcpy(army, have, nhave);
		for (unsigned i = 0; i < need; i++)
			army[nhave + i] = pool[idx[i]];
		if (hg_koc_army_key(army, 4) > target)
			return 1;
		int i = (int)need - 1;
		while (i >= 0 && idx[i] == npool - need + (unsigned)i)
			i--;
		if (i < 0)
			return 0;
		idx[i]++;
		for (unsigned k = (unsigned)i + 1; k < need; k++)
			idx[k] = idx[k - 1] + 1;
	}
}

/* The proof that comes with a yes is a real better army: at most what the
 * pool holds of each type, exactly the cards still to place, each type
 * once, and a key above the target. */
static void assert_proof(const unsigned char c[5], unsigned need, const uint16_t pool[32],
			 hg_koc_key t, const hg_koc_proof *proof)
{
	unsigned char got[5];
	memcpy(got, c, sizeof got);
	unsigned taken = 0, types = 0;
	ck_assert_uint_le(proof->ntypes, 4);
	for (unsigned i = 0; i < proof->ntypes; i++) {
		unsigned ty = proof->type[i];
		ck_assert_uint_lt(ty, 32);
		ck_assert_uint_eq((types >> ty) & 1u, 0);
		types |= 1u << ty;
		ck_assert_uint_gt(proof->take[i], 0);
		ck_assert_uint_le(proof->take[i], pool[ty]);
		taken += proof->take[i];
		for (int k = 0; k < 5; k++)
			got[k] = (unsigned char)(got[k] + proof->take[i] * ((ty >> k) & 1));
	}
	ck_assert_uint_eq(taken, need);
	ck_assert_uint_gt(hg_koc_key_of(got), t);
}

/* Whether the army of the richest cards beats the target: the `need`
 * cards of the types with the most symbols (of equal numbers, the higher
 * set first), as many of each as the pool holds.  army.c tries this army
 * before its search; the tests count the answers each gives, so that the
 * search is still exercised as much as the quick proof. */
static int richest_beats_ref(const unsigned char c[5], unsigned need, const uint16_t pool[32],
			     hg_koc_key t)
{
	unsigned char got[5];
	memcpy(got, c, sizeof got);
	for (int bits = 5; bits >= 1; bits--)
		for (int ty = 31; ty >= 1; ty--) {
			if (__builtin_popcount((unsigned)ty) != bits || need == 0)
				continue;
			unsigned take = pool[ty] < need ? pool[ty] : need;
			for (int k = 0; k < 5; k++)
				got[k] = (unsigned char)(got[k] + take * ((ty >> k) & 1));
			need -= take;
		}
	return need == 0 && hg_koc_key_of(got) > t;
}

static int quick_yes, searched_yes;	/* fast_beat's yes answers, by where they come from */

static int fast_beat(const unsigned char *have, unsigned nhave, const unsigned char *pool,
		     unsigned npool, hg_koc_key target)
{
	uint16_t counts[KOC_NTYPES] = { 0 };
	for (unsigned i = 0; i < npool; i++)
		counts[pool[i]]++;
	unsigned char c[KOC_NKINDS];
	hg_koc_count(have, nhave, c);
	int yes = hg_koc_can_beat(c, 4 - nhave, counts, target);
	hg_koc_proof proof;
	ck_assert_int_eq(hg_koc_can_beat_with(c, 4 - nhave, counts, target, &proof), yes);
	if (yes) {
		assert_proof(c, 4 - nhave, counts, target, &proof);
		richest_beats_ref(c, 4 - nhave, counts, target) ? quick_yes++ : searched_yes++;
	}
	return yes;
}

START_TEST(early_win_must_fire)
{
	/* A regiment of banners with helmets on three cards: only another
	 * banner regiment with a helmet battalion or better could beat it.
	 * The pool holds no banner at all: the proof fires. */
	unsigned char winner[4] = { N | H, N | H, N | H, N };
	unsigned char have[2] = { L, B };
	unsigned char pool[] = { L, B, S, H, L | B | S | H, S | H, L | S };
	hg_koc_key t = key4(winner);
	ck_assert_int_eq(fast_beat(have, 2, pool, sizeof pool, t), 0);
	ck_assert_int_eq(brute_beat(have, 2, pool, sizeof pool, 2, t), 0);
	/* Nothing still to place, nothing in the pool: the army is final. */
	unsigned char full[4] = { L, L, L, B };
	ck_assert_int_eq(fast_beat(full, 4, pool, 0, t), 0);
}
END_TEST

START_TEST(early_win_must_not_fire)
{
	/* The same army against a player who holds two banner-helmet cards
	 * already: two more from a pool with banner-helmet cards tie or beat
	 * it.  Equal is not enough (the first to complete wins a tie) ... */
	unsigned char winner[4] = { N | H, N | H, N | H, N };
	hg_koc_key t = key4(winner);
	unsigned char have[2] = { N | H, N | H };
	unsigned char tie_pool[] = { N | H, N, L };
	ck_assert_int_eq(fast_beat(have, 2, tie_pool, sizeof tie_pool, t), 0);
	ck_assert_int_eq(brute_beat(have, 2, tie_pool, sizeof tie_pool, 2, t), 0);
	/* ... but one more symbol is: a lance on the last card. */
	unsigned char beat_pool[] = { N | H, N | L, S };
	ck_assert_int_eq(fast_beat(have, 2, beat_pool, sizeof beat_pool, t), 1);
	ck_assert_int_eq(brute_beat(have, 2, beat_pool, sizeof beat_pool, 2, t), 1);
	/* One card of a type is one card: two N|H are needed, one is there. */
	unsigned char one_pool[] = { N | H, N, N };
	unsigned char have3[3] = { N | H, N | H, L };
	ck_assert_int_eq(fast_beat(have3, 3, one_pool, sizeof one_pool, t), 0);
	unsigned char have3b[3] = { N | H, N | H, N | L };
	ck_assert_int_eq(fast_beat(have3b, 3, one_pool, 1, t), 1);
}
END_TEST

/* Random small pools against brute force: both answers must agree, and
 * both must occur. */
START_TEST(early_win_matches_brute_force)
{
	hg_prng r;
	hg_prng_seed(&r, "koc-early-win");
	int yes = 0, no = 0;
	for (int round = 0; round < 4000; round++) {
		unsigned char winner[4], have[4], pool[14];
		for (int i = 0; i < 4; i++)
			winner[i] = random_card(&r);
		/* Winners skew strong so that both answers are common. */
		if (round % 2)
			for (int i = 0; i < 4; i++)
				winner[i] |= (unsigned char)(N | (hg_prng_below(&r, 2) ? H : 0));
		unsigned nhave = hg_prng_below(&r, 4);
		for (unsigned i = 0; i < nhave; i++)
			have[i] = random_card(&r);
		unsigned npool = 4 - nhave + hg_prng_below(&r, 10);
		for (unsigned i = 0; i < npool; i++)
			pool[i] = hg_prng_below(&r, 3) ? random_card(&r)
						       : (unsigned char)(1u << hg_prng_below(&r, 5));
		hg_koc_key t = key4(winner);
		int want = brute_beat(have, nhave, pool, npool, 4 - nhave, t);
		ck_assert_int_eq(fast_beat(have, nhave, pool, npool, t), want);
		want ? yes++ : no++;
	}
	ck_assert_int_gt(yes, 200);
	ck_assert_int_gt(no, 200);
	/* Both the quick proof and the search answered yes many times. */
	ck_assert_int_gt(quick_yes, 100);
	ck_assert_int_gt(searched_yes, 100);
}
END_TEST

/* On full-size pools (two decks' worth) against an unpruned enumeration of
 * every multiset of types. */
static int multiset_beat(unsigned char c[5], unsigned need, uint16_t pool[32], unsigned from,
			 hg_koc_key t)
{
	if (need == 0)
		return hg_koc_key_of(c) > t;
	for (unsigned ty = from; ty < 32; ty++) {
		if (!pool[ty])
			continue;
		pool[ty]--;
		for (int k = 0; k < 5; k++)
			c[k] = (unsigned char)(c[k] + ((ty >> k) & 1));
		int found = multiset_beat(c, need - 1, pool, ty, t);
		for (int k = 0; k < 5; k++)
			c[k] = (unsigned char)(c[k] - ((ty >> k) & 1));
		pool[ty]++;
		if (found)
			return 1;
	}
	return 0;
}

START_TEST(early_win_large_pools)
{
	hg_prng r;
	hg_prng_seed(&r, "koc-early-win-large");
	int yes = 0, no = 0, quick = 0, searched = 0;
	for (int round = 0; round < 300; round++) {
		uint16_t pool[32] = { 0 };
		unsigned npool = 20 + hg_prng_below(&r, 60);
		for (unsigned i = 0; i < npool; i++) {
			/* thin out the strong types so the answer varies */
			unsigned char m = random_card(&r);
			if (m & N && hg_prng_below(&r, 4))
				m = (unsigned char)(m & ~N);
			if (!m)
				m = L;
			pool[m]++;
		}
		unsigned char winner[4], have[4], c[5];
		for (int i = 0; i < 4; i++)
			winner[i] = (unsigned char)(random_card(&r) | N | H);
		unsigned nhave = hg_prng_below(&r, 4);
		for (unsigned i = 0; i < nhave; i++)
			have[i] = random_card(&r);
		hg_koc_count(have, nhave, c);
		hg_koc_key t = key4(winner);
		int want = multiset_beat(c, 4 - nhave, pool, 1, t);
		ck_assert_int_eq(hg_koc_can_beat(c, 4 - nhave, pool, t), want);
		/* the proof kept for reuse is a real better army from the pool */
		hg_koc_proof proof;
		ck_assert_int_eq(hg_koc_can_beat_with(c, 4 - nhave, pool, t, &proof), want);
		if (want) {
			assert_proof(c, 4 - nhave, pool, t, &proof);
			richest_beats_ref(c, 4 - nhave, pool, t) ? quick++ : searched++;
		}
		want ? yes++ : no++;
	}
	ck_assert_int_gt(yes, 10);
	ck_assert_int_gt(no, 10);
	ck_assert_int_gt(quick, 10);
	ck_assert_int_gt(searched, 10);
}
END_TEST

/* ------------------------------------------------------------------ deck file */
static hg_gdata *deck_from(const char *yaml, hg_diags *d)
{
	return hg_koc_deck_parse("deck.yaml", yaml, strlen(yaml), d);
}

static void assert_diag(const hg_diags *d, const char *code, unsigned line, unsigned col)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->v[i].code, code) == 0) {
			ck_assert_uint_eq(d->v[i].line, line);
			if (col)
				ck_assert_uint_eq(d->v[i].col, col);
			return;
		}
	ck_abort_msg("no diagnostic %s (got %zu, first %s)", code, d->n,
		     d->n ? d->v[0].code : "-");
}

static const struct deck_case {
	const char *yaml;
	const char *code;
	unsigned line, col;
} deck_cases[] = {
	{ "game: kingdoms-of-crusaders\ncards:\n  - {id: c1, symbols: [lance], colour: red}\n",
	  "data.unknown-key", 3, 32 },
	{ "game: kingdoms-of-crusaders\ncards:\n  - id: c1\n    symbols: [lance, axe]\n",
	  "data.range", 4, 22 },
	{ "game: kingdoms-of-crusaders\ncards:\n  - id: c1\n    symbols: [bow, lance, bow]\n",
	  "koc.symbol-twice", 4, 27 },
	{ "game: kingdoms-of-crusaders\ncards:\n  - id: c1\n    symbols: []\n",
	  "koc.no-symbols", 4, 14 },
	{ "game: kingdoms-of-crusaders\ncards:\n  - {id: c1, symbols: [bow]}\n"
	  "  - {id: C1, symbols: [lance]}\n", "data.duplicate-id", 4, 10 },
	{ "game: kingdoms-of-crusaders\ncards:\n  - {id: c1, symbols: [bow], aliases: [archer]}\n"
	  "  - {id: c2, symbols: [lance], aliases: [Archer]}\n", "data.duplicate-id", 4, 42 },
	{ "game: kingdoms-of-crusaders\ncards:\n  - {id: '12', symbols: [bow]}\n",
	  "data.range", 3, 10 },
	{ "game: crusader-kingdoms\ncards:\n  - {id: c1, symbols: [bow]}\n", "data.range", 1, 7 },
	{ "game: kingdoms-of-crusaders\n", "data.missing-key", 1, 1 },
	{ "game: kingdoms-of-crusaders\ncards: []\n", "data.range", 2, 8 },
	{ "game: kingdoms-of-crusaders\ncards:\n  - {id: c1, symbols: lance}\n", "data.type", 3, 23 },
	{ "game: kingdoms-of-crusaders\nreconstructed: maybe\ncards:\n  - {id: c1, symbols: [bow]}\n",
	  "data.type", 2, 16 },
	/* A location's words: not a sector's number, each naming one location. */
	{ "game: kingdoms-of-crusaders\nlocations:\n  - {number: 1, name: Acre, aliases: [s2]}\n"
	  "cards:\n  - {id: c1, symbols: [bow]}\n", "data.range", 3, 39 },
	{ "game: kingdoms-of-crusaders\nlocations:\n  - {number: 1, name: Acre}\n"
	  "  - {number: 2, name: Tyre, aliases: [ACRE]}\n"
	  "cards:\n  - {id: c1, symbols: [bow]}\n", "data.duplicate-id", 4, 39 },
	{ "game: kingdoms-of-crusaders\nlocations:\n  - {number: 1, name: \"Saint Jean d'Acre\"}\n"
	  "cards:\n  - {id: c1, symbols: [bow]}\n", "data.range", 3, 23 },
};

START_TEST(deck_diagnostics)
{
	const struct deck_case *c = &deck_cases[_i];
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = deck_from(c->yaml, &d);
	ck_assert_ptr_null(g);
	ck_assert_uint_gt(d.nerrors, 0);
	assert_diag(&d, c->code, c->line, c->col);
	ck_assert_str_eq(d.v[0].file, "deck.yaml");
	hg_diags_free(&d);
}
END_TEST

START_TEST(deck_good_and_two_decks)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = deck_from("game: kingdoms-of-crusaders\nreconstructed: true\ncards:\n"
				"  - {id: c1, symbols: [banner, lance]}\n"
				"  - {id: c2, symbols: [bow], aliases: [archer]}\n", &d);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_int_eq(hg_provs_find(&g->provs, NULL, "cards.c1.symbols")->kind,
			 HG_PROV_RECONSTRUCTED);
	ck_assert_uint_eq(g->one.n, 2);
	ck_assert_uint_eq(g->one.mask[0], N | L);
	ck_assert_int_eq(hg_names_find(g->one.names, "ARCHER"), 1);
	ck_assert_uint_eq(g->two.n, 4);
	ck_assert_str_eq(g->two.ids[0], "c1a");
	ck_assert_str_eq(g->two.ids[3], "c2b");
	ck_assert_int_eq(hg_names_find(g->two.names, "archerb"), 3);
	ck_assert_int_eq(hg_names_find(g->two.names, "c1"), -1);
	hg_koc_unload(g);
	hg_diags_free(&d);
}
END_TEST

/* A deck file names its own locations, and the actions read them. */
START_TEST(deck_own_locations)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = deck_from("game: kingdoms-of-crusaders\nlocations:\n"
				"  - {number: 2, name: Krak des Chevaliers, aliases: [krak]}\n"
				"cards:\n  - {id: c1, symbols: [bow]}\n", &d);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(g->location[1].id, "krak-des-chevaliers");
	ck_assert_int_eq(hg_names_find(g->location_names, "Krak-des-Chevaliers"), 1);
	ck_assert_int_eq(hg_names_find(g->location_names, "KRAK"), 1);
	ck_assert_int_eq(hg_names_find(g->location_names, "cyprus"), -1);
	ck_assert_ptr_null(g->location[0].id);
	hg_koc_unload(g);
	hg_diags_free(&d);
}
END_TEST

START_TEST(shipped_deck)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_gdata *g = hg_koc_deck_load(DECK_PATH, &d);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(d.n, 0);
	/* The published facts of the core box: 56 unit cards, 15 victory
	 * markers, 2 location cards, five locations; most cards show one or
	 * two symbols, a few all five (issue 29). */
	ck_assert_uint_eq(g->ndeck, 56);
	ck_assert_uint_eq(g->victory_markers, 15);
	ck_assert_uint_eq(g->location_cards, 2);
	for (unsigned k = 0; k < KOC_SECTORS; k++)
		ck_assert_ptr_nonnull(g->location[k].name);
	ck_assert_str_eq(g->location[4].name, "Cyprus");
	/* The counts and the names are published; which location has which
	 * number is not. */
	ck_assert_int_eq(hg_provs_find(&g->provs, NULL, "victory_markers")->kind,
			 HG_PROV_PUBLISHED);
	ck_assert_int_eq(hg_provs_find(&g->provs, NULL, "location_cards")->kind,
			 HG_PROV_PUBLISHED);
	ck_assert_int_eq(hg_provs_find(&g->provs, NULL, "locations.4.name")->kind,
			 HG_PROV_PUBLISHED);
	ck_assert_int_eq(hg_provs_find(&g->provs, NULL, "locations.4.number")->kind,
			 HG_PROV_RECONSTRUCTED);
	/* Every combination of symbols appears, and rarer the stronger. */
	int seen[32] = { 0 }, kinds[5] = { 0 }, by_size[6] = { 0 };
	for (size_t i = 0; i < g->ndeck; i++) {
		seen[g->deck[i].mask]++;
		by_size[__builtin_popcount(g->deck[i].mask)]++;
		/* Each card's symbols are reconstructed, and say so. */
		hg_buf datum;
		hg_buf_init(&datum);
		hg_buf_printf(&datum, "cards.%s.symbols", g->deck[i].id);
		ck_assert_int_eq(hg_provs_find(&g->provs, NULL, datum.data)->kind,
				 HG_PROV_RECONSTRUCTED);
		hg_buf_free(&datum);
		for (int k = 0; k < 5; k++)
			kinds[k] += (g->deck[i].mask >> k) & 1;
	}
	ck_assert_int_gt(by_size[1] + by_size[2], (int)g->ndeck / 2);
	ck_assert_int_ge(by_size[5], 2);
	ck_assert_int_lt(by_size[5], by_size[4]);
	for (int t = 1; t < 32; t++)
		ck_assert_int_gt(seen[t], 0);
	for (int k = 1; k < 5; k++)
		ck_assert_int_lt(kinds[k], kinds[k - 1]);
	hg_koc_unload(g);
	hg_diags_free(&d);
}
END_TEST


/* ------------------------------------------------------------------ records */

/* hg_koc_card_find (the cards by the number in their id, then the names)
 * against hg_names_find alone, on every id and alias of the shipped deck
 * and of a deck made to trip it (ids sharing a number, ids without one,
 * accents, aliases that look like ids), with one deck and two, and on
 * random words made of the ids' bytes. */
static void assert_find_like_names(const hg_koc_cards *cards, const char *word)
{
	ck_assert_msg(hg_koc_card_find(cards, word) == hg_names_find(cards->names, word),
		      "'%s': the index finds %d, the names %d", word,
		      hg_koc_card_find(cards, word), hg_names_find(cards->names, word));
}

static void check_card_find(const hg_gdata *g, hg_prng *r)
{
	static const char *const extra[] = {
		"", "?", "c", "0", "1", "c0", "c00", "c000", "c1", "C1", "c01", "C01", "c001",
		"c1a", "c1A", "c01a", "c01b", "c01c", "c40", "c40b", "c41", "c99999", "c10000",
		"épée7", "EPEE7", "epee7a", "x", "X", "xa", "one", "ONEa", "c11", "c11b", "1c",
	};
	static const char alphabet[] = "c0147aAbBxXeé";
	for (unsigned copies = 1; copies <= 2; copies++) {
		const hg_koc_cards *cards = copies == 1 ? &g->one : &g->two;
		for (size_t c = 0; c < cards->n; c++) {
			ck_assert_int_eq(hg_koc_card_find(cards, cards->ids[c]), (int)c);
			/* in the index when its id carries a number */
			int v = hg_koc_id_number(cards->ids[c]), in = 0;
			if (v >= 0)
				for (int k = cards->by_number[v]; k >= 0; k = cards->next_same[k])
					in |= k == (int)c;
			ck_assert_int_eq(in, v >= 0);
		}
		for (size_t i = 0; i < g->ndeck; i++)
			for (size_t k = 0; k < g->deck[i].naliases; k++)
				assert_find_like_names(cards, g->deck[i].aliases[k]);
		for (size_t i = 0; i < HG_ARRAY_LEN(extra); i++)
			assert_find_like_names(cards, extra[i]);
		char w[32];
		for (int round = 0; round < 4000; round++) {
			size_t len = 0, n = 1 + hg_prng_below(r, 6);
			for (size_t i = 0; i < n; i++) {
				/* 'é' is two bytes: alphabet's last two */
				unsigned at = hg_prng_below(r, sizeof alphabet - 2);
				if (alphabet[at] == (char)0xc3)
					w[len++] = alphabet[at++];
				w[len++] = alphabet[at];
			}
			w[len] = '\0';
			assert_find_like_names(cards, w);
		}
	}
}

START_TEST(cards_by_number)
{
	hg_prng r;
	hg_prng_seed(&r, "cards-by-number");
	hg_gdata *g = shipped();
	check_card_find(g, &r);
	hg_koc_unload(g);
	hg_diags d;
	hg_diags_init(&d);
	g = deck_from("game: kingdoms-of-crusaders\ncards:\n"
		      "  - {id: c1, symbols: [lance], aliases: [one]}\n"
		      "  - {id: c001, symbols: [bow]}\n"
		      "  - {id: x, symbols: [swords]}\n"
		      "  - {id: \xc3\x89p\xc3\xa9" "e7, symbols: [helmet]}\n"
		      "  - {id: c10, symbols: [banner], aliases: [c11, x7]}\n"
		      "  - {id: c99999, symbols: [lance, bow]}\n"
		      "  - {id: 7c, symbols: [lance, banner]}\n", &d);
	ck_assert_msg(g != NULL, "%s", d.n ? d.v[0].message : "");
	ck_assert_int_eq(hg_koc_id_number("c001"), 1);
	ck_assert_int_eq(hg_koc_id_number("x"), -1);
	ck_assert_int_eq(hg_koc_id_number("c99999"), -1);
	ck_assert_int_eq(hg_koc_id_number("7c"), 7);
	check_card_find(g, &r);
	hg_koc_unload(g);
	hg_diags_free(&d);
}
END_TEST

/* An action text as the lexer would cut it: tokens at single spaces. */
static void action_text(hg_action_text *t, const char *seat, const char *body)
{
	memset(t, 0, sizeof *t);
	t->seat = hg_xstrdup(seat);
	t->seat_len = strlen(seat);
	t->seat_pos = (hg_pos){ "t.hgn", 1, 1 };
	t->text = hg_xstrdup(body);
	t->len = strlen(body);
	t->pos = (hg_pos){ "t.hgn", 1, (unsigned)strlen(seat) + 3 };
	const char *p = body;
	while (*p) {
		size_t len = strcspn(p, " ");
		t->toks = hg_xrealloc(t->toks, (t->ntoks + 1) * sizeof *t->toks);
		hg_atok *k = &t->toks[t->ntoks++];
		k->text = hg_xstrndup(p, len);
		k->len = (unsigned)len;
		k->off = (size_t)(p - body);
		k->pos = (hg_pos){ "t.hgn", 1, t->pos.col + (unsigned)k->off };
		k->kind = strspn(k->text, "0123456789") == len ? HG_ATOK_NUMBER
			  : strcmp(k->text, "?") == 0	      ? HG_ATOK_UNKNOWN
			  : strcmp(k->text, ",") == 0	      ? HG_ATOK_PUNCT
							      : HG_ATOK_WORD;
		p += len;
		while (*p == ' ')
			p++;
	}
}

typedef struct game {
	hg_gdata *data;
	hg_game_record *rec;
	hg_state *s;
	hg_diags d;
} game;

static void game_open_with(game *g, hg_gdata *data, const char *players,
			   const char *order_tag, const char *order, const char *first,
			   const char *variant)
{
	g->data = data;
	g->rec = hg_record_new("t.hgn");
	hg_record_set_tag(g->rec, "Game", "kingdoms-of-crusaders");
	hg_record_set_tag(g->rec, "Players", players);
	if (order_tag)
		hg_record_set_tag(g->rec, order_tag, order);
	if (first)
		hg_record_set_tag(g->rec, "First", first);
	if (variant)
		hg_record_set_tag(g->rec, "Variant", variant);
	hg_diags_init(&g->d);
	g->s = hg_koc_class.setup(g->data, g->rec, &g->d);
}

static void game_open(game *g, const char *players, const char *order_tag,
		      const char *order, const char *first, const char *variant)
{
	game_open_with(g, shipped(), players, order_tag, order, first, variant);
}


static void game_close(game *g)
{
	hg_koc_class.free_state(g->s);
	hg_record_free(g->rec);
	hg_koc_unload(g->data);
	hg_diags_free(&g->d);
}

/* Parses and applies one action; returns apply's answer, or -2 when it
 * does not parse. */
static int play(game *g, const char *seat, const char *body)
{
	hg_action_text t;
	action_text(&t, seat, body);
	hg_action *a = hg_koc_class.parse(g->s, &t, &g->d);
	hg_action_text_free(&t);
	if (!a)
		return -2;
	int rc = hg_koc_class.apply(g->s, a, &g->d);
	hg_koc_class.free_action(a);
	return rc;
}

static const char *last_code(const game *g)
{
	return g->d.n ? g->d.v[g->d.n - 1].code : "";
}

/* The deck in file order, top first: c01 is drawn first. */
static char *file_order(void)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 1; i <= 56; i++)
		hg_buf_printf(&b, "%sc%02d", i > 1 ? " " : "", i);
	return hg_buf_steal(&b);
}

/* The counts, keys, best armies and decidable sectors the engine keeps up
 * as cards are placed (engine.c, add_to_sector and note_complete), against
 * a count from the cards in each sector. */
static void assert_derived(const hg_state *s)
{
	for (unsigned k = 0; k < KOC_SECTORS; k++) {
		int best = -1;
		hg_koc_key best_key = 0;
		for (unsigned p = 0; p < s->nplayers; p++) {
			unsigned char masks[KOC_ARMY], counts[KOC_NKINDS];
			unsigned n = s->nsector[p][k];
			for (unsigned i = 0; i < n; i++)
				masks[i] = s->cards->mask[s->sector[p][k][i]];
			hg_koc_count(masks, n, counts);
			ck_assert_int_eq(memcmp(counts, s->counts[p][k], KOC_NKINDS), 0);
			hg_koc_key key = hg_koc_army_key(masks, n);
			ck_assert_uint_eq(s->key[p][k], key);
			ck_assert_uint_eq(hg_koc_sector_key(s, p, k), key);
			if (n < KOC_ARMY)
				continue;
			if (best < 0 || hg_koc_army_cmp(key, s->completed[p][k], best_key,
							s->completed[best][k]) > 0) {
				best = (int)p;
				best_key = key;
			}
		}
		ck_assert_int_eq(s->best[k], best);
		ck_assert_uint_eq((s->decidable >> k) & 1u, best >= 0 && s->winner[k] < 0);
		/* Ruling 6: a territory with a complete army stays open only
		 * while another player can still gather a better one, by a
		 * search from scratch; and a kept proof that still applies is
		 * a real better army from the pool. */
		int contested = 0;
		for (unsigned q = 0; q < s->nplayers; q++) {
			unsigned n = s->nsector[q][k];
			const hg_koc_beat_memo *m = &s->beat_memo[q][k];
			if (n == KOC_ARMY)
				continue;
			if (best >= 0 && hg_koc_can_beat(s->counts[q][k], KOC_ARMY - n, s->pool,
							 best_key))
				contested = 1;
			if (!m->valid || m->need != KOC_ARMY - n ||
			    memcmp(m->counts, s->counts[q][k], KOC_NKINDS) != 0)
				continue;
			int holds = 1;
			for (unsigned i = 0; i < m->proof.ntypes; i++)
				holds &= m->proof.take[i] <= s->pool[m->proof.type[i]];
			if (holds)
				assert_proof(m->counts, m->need, s->pool, m->target, &m->proof);
		}
		if (best >= 0 && s->winner[k] < 0)
			ck_assert_msg(contested, "territory %u is open, but no one can beat %s",
				      k + 1, hg_koc_seat_name((unsigned)best));
	}
}

/* Every spelling parses the same with the canonical shapes read from the
 * tokens as through the patterns alone: the same action, or the same
 * diagnostics (both are built from notation.c's one table of shapes; this
 * checks the table's tags against its leads). */
static void assert_same_diags(const hg_diags *a, const hg_diags *b)
{
	ck_assert_uint_eq(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const hg_diag *x = &a->v[i], *y = &b->v[i];
		ck_assert_int_eq(x->severity, y->severity);
		ck_assert_str_eq(x->code, y->code);
		ck_assert_str_eq(x->message, y->message);
		ck_assert_uint_eq(x->line, y->line);
		ck_assert_uint_eq(x->col, y->col);
		ck_assert_uint_eq(x->nnotes, y->nnotes);
		for (size_t k = 0; k < x->nnotes; k++)
			ck_assert_str_eq(x->notes[k], y->notes[k]);
	}
}

static void assert_same_pos(hg_pos a, hg_pos b)
{
	ck_assert_uint_eq(a.line, b.line);
	ck_assert_uint_eq(a.col, b.col);
}

static void assert_same_action(const hg_action *a, const hg_action *b)
{
	ck_assert_int_eq(a->verb, b->verb);
	ck_assert_uint_eq(a->seat, b->seat);
	assert_same_pos(a->pos, b->pos);
	ck_assert_uint_eq(a->ncards, b->ncards);
	for (unsigned i = 0; i < a->ncards; i++) {
		ck_assert_int_eq(a->card[i], b->card[i]);
		assert_same_pos(a->card_pos[i], b->card_pos[i]);
	}
	if (a->verb == KOC_PLACE || a->verb == KOC_WIN) {
		ck_assert_uint_eq(a->sector, b->sector);
		assert_same_pos(a->sector_pos, b->sector_pos);
	}
	if (a->verb == KOC_WIN) {
		ck_assert_uint_eq(a->marker, b->marker);
		assert_same_pos(a->marker_pos, b->marker_pos);
	}
}

static void parse_both_ways(const hg_state *s, hg_prng *r, int *parsed, int *failed)
{
	static const char *const seats[] = { "P1", "p2", "P3", "Ana", "ben", "P9" };
	/* verbs[i] has the shape shape_of[i]: 0 place, 1 draw, 2 deal, 3 win */
	static const char *const verbs[] = {
		"place", "places", "placed", "play", "plays", "played", "PLACE", "placé", "pläy",
		"draw", "draws", "drew", "Draw", "dràw",
		"deal", "deals", "dealt", "dEaL",
		"win", "wins", "won", "take", "takes", "took", "claim", "claims", "WIN", "wïn",
		"plac", "xyz",
	};
	static const int shape_of[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1,
					2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 1 };
	_Static_assert(HG_ARRAY_LEN(verbs) == HG_ARRAY_LEN(shape_of), "a shape for every verb");
	static const char *const cards[] = { "c01", "c12", "C07", "c40", "c01a", "c40b", "?" };
	static const char *const numbers[] = { "1", "3", "5", "0", "6", "007", "12345678901",
						"cyprus", "Edessa", "county-of-tripoli", "cyprys",
						"chípre", "s4", "s9" };
	static const char *const markers[] = { "#1", "#2", "#5", "#0", "#6", "#007" };
	static const char *const words[] = {
		"c99", ",", "c0é", "c01,", "s3", "S2", "sector", "in", "to", "#", "#x",
		"#12", "marker", "victory", "territory", "x", "é", "c01", "4", "#3", "?",
	};
	char body[256];
	for (int round = 0; round < 8000; round++) {
		unsigned v = hg_prng_below(r, HG_ARRAY_LEN(verbs));
		size_t len = (size_t)snprintf(body, sizeof body, "%s", verbs[v]);
		/* The shape the writer emits for the verb, a word sometimes
		 * changed, dropped or added. */
		const char *slot[8];
		unsigned n = 0;
		switch (shape_of[v]) {
		case 0:
			slot[n++] = cards[hg_prng_below(r, HG_ARRAY_LEN(cards))];
			slot[n++] = numbers[hg_prng_below(r, HG_ARRAY_LEN(numbers))];
			break;
		case 1:
			slot[n++] = cards[hg_prng_below(r, HG_ARRAY_LEN(cards))];
			break;
		case 2:
			for (int i = 0; i < 5; i++)
				slot[n++] = cards[hg_prng_below(r, HG_ARRAY_LEN(cards))];
			break;
		default:
			slot[n++] = numbers[hg_prng_below(r, HG_ARRAY_LEN(numbers))];
			slot[n++] = markers[hg_prng_below(r, HG_ARRAY_LEN(markers))];
			break;
		}
		for (unsigned i = 0; i < n; i++)
			if (hg_prng_below(r, 6) == 0)
				slot[i] = words[hg_prng_below(r, HG_ARRAY_LEN(words))];
		if (n > 0 && hg_prng_below(r, 8) == 0)
			n--;
		else if (hg_prng_below(r, 8) == 0)
			slot[n++] = words[hg_prng_below(r, HG_ARRAY_LEN(words))];
		for (unsigned i = 0; i < n; i++)
			len += (size_t)snprintf(body + len, sizeof body - len, " %s", slot[i]);
		hg_action_text t;
		hg_diags dt;
		hg_diags_init(&dt);
		const char *seat = seats[hg_prng_below(r, HG_ARRAY_LEN(seats))];
		int rc = hg_action_text_set(&t, seat, body, (hg_pos){ "t.hgn", 3, 7 }, &dt);
		hg_diags_free(&dt);
		if (rc != 0)
			continue;
		hg_diags da, db;
		hg_diags_init(&da);
		hg_diags_init(&db);
		hg_action *a = hg_koc_parse(s, &t, &da);
		hg_action *b = hg_koc_parse_by_patterns(s, &t, &db);
		ck_assert_msg((a == NULL) == (b == NULL), "'%s: %s' parses one way only", seat, body);
		if (a) {
			assert_same_action(a, b);
			(*parsed)++;
		} else {
			(*failed)++;
		}
		assert_same_diags(&da, &db);
		hg_koc_free_action(a);
		hg_koc_free_action(b);
		hg_diags_free(&da);
		hg_diags_free(&db);
		hg_action_text_free(&t);
	}
}

START_TEST(canonical_shapes_match_patterns)
{
	hg_prng r;
	hg_prng_seed(&r, "koc-plain-shapes");
	int parsed = 0, failed = 0;
	static const char *const players[] = { "Ana; Ben", "Ana; Ben; Cy" };
	for (size_t i = 0; i < HG_ARRAY_LEN(players); i++) {
		game g;
		game_open(&g, players[i], "Seed", "plain", NULL, NULL);
		ck_assert_ptr_nonnull(g.s);
		parse_both_ways(g.s, &r, &parsed, &failed);
		game_close(&g);
	}
	ck_assert_int_gt(parsed, 500);
	ck_assert_int_gt(failed, 500);
}
END_TEST

START_TEST(parse_actions)
{
	game g;
	char *order = file_order();
	game_open(&g, "Ana; Ben", "DeckOrder", order, "P1", NULL);
	free(order);
	ck_assert_ptr_nonnull(g.s);
	static const struct {
		const char *seat, *body, *canonical;
	} ok[] = {
		{ "P1", "deal c01 c02 c03 c04 c05", "P1: deal c01 c02 c03 c04 c05" },
		{ "ana", "Deal C01 , ? c03 ? c05", "P1: deal c01 ? c03 ? c05" },
		{ "Ben", "draw ?", "P2: draw ?" },
		{ "P2", "drew c12", "P2: draw c12" },
		{ "P1", "place c12 3", "P1: place c12 3" },
		{ "P1", "plays c12 in sector 5", "P1: place c12 5" },
		{ "P1", "place c12 s1", "P1: place c12 1" },
		{ "P2", "win 3 #2", "P2: win 3 #2" },
		{ "P2", "wins territory 4 marker 1", "P2: win 4 #1" },
		{ "P1", "place c12 cyprus", "P1: place c12 5" },
		{ "P1", "play c12 in County-of-Edessa", "P1: place c12 2" },
		{ "P1", "place c12 into sector jérusalem", "P1: place c12 1" },
		{ "P2", "win antioch #3", "P2: win 3 #3" },
		{ "P2", "takes territory tripoli marker 2", "P2: win 4 #2" },
	};
	hg_buf seat, body;
	hg_buf_init(&seat);
	hg_buf_init(&body);
	for (size_t i = 0; i < HG_ARRAY_LEN(ok); i++) {
		hg_action_text t;
		action_text(&t, ok[i].seat, ok[i].body);
		hg_action *a = hg_koc_class.parse(g.s, &t, &g.d);
		ck_assert_msg(a != NULL, "'%s' does not parse", ok[i].body);
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		hg_koc_class.format(g.s, a, &seat, &body);
		hg_buf_puts(&seat, ": ");
		hg_buf_puts(&seat, body.data);
		ck_assert_str_eq(seat.data, ok[i].canonical);
		hg_koc_class.free_action(a);
		hg_action_text_free(&t);
	}
	ck_assert_uint_eq(g.d.n, 0);
	static const struct {
		const char *seat, *body, *code;
	} bad[] = {
		{ "P1", "deal c01 c02 c03 c04", "koc.syntax" },
		{ "P1", "draw", "koc.syntax" },
		{ "P1", "place c12", "koc.syntax" },
		{ "P1", "place ? 3", "koc.syntax" },
		{ "P1", "place c12 6", "koc.sector" },
		{ "P1", "place c12 cyprys", "koc.sector" },
		{ "P1", "place c12 s0", "koc.sector" },
		{ "P1", "win sector #1", "koc.sector" },
		{ "P1", "place c99 2", "koc.unknown-card" },
		{ "P1", "win 3 #7", "koc.marker-number" },
		{ "P1", "attack 3", "koc.syntax" },
		{ "P3", "draw c01", "koc.unknown-seat" },
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(bad); i++) {
		hg_action_text t;
		action_text(&t, bad[i].seat, bad[i].body);
		size_t before = g.d.nerrors;
		hg_action *a = hg_koc_class.parse(g.s, &t, &g.d);
		ck_assert_msg(a == NULL, "'%s' parses", bad[i].body);
		ck_assert_uint_gt(g.d.nerrors, before);
		ck_assert_msg(strcmp(last_code(&g), bad[i].code) == 0, "'%s': %s, not %s",
			      bad[i].body, last_code(&g), bad[i].code);
		hg_action_text_free(&t);
	}
	/* A misspelt location: the nearest one's id, and the ones there are. */
	hg_action_text t;
	action_text(&t, "P1", "place c12 in edesa");
	ck_assert_ptr_null(hg_koc_class.parse(g.s, &t, &g.d));
	const hg_diag *dg = &g.d.v[g.d.n - 1];
	ck_assert_str_eq(dg->message, "there is no sector 'edesa': no location has that name "
			 "(rule 'Location card')");
	ck_assert_uint_eq(dg->nnotes, 2);
	ck_assert_str_eq(dg->notes[0], "did you mean 'county-of-edessa' (2)?");
	ck_assert_ptr_nonnull(strstr(dg->notes[1], "cyprus (5)"));
	hg_action_text_free(&t);
	hg_buf_free(&seat);
	hg_buf_free(&body);
	game_close(&g);
}
END_TEST

/* The spare action block (action-cache.h): an action parsed in a state
 * stays valid after that state and its clone are freed (hg_apply_keep
 * frees the state an action was parsed in before the action), an action
 * given back is handed out again all zero but for what the new parse
 * sets, and two actions alive at once are two blocks. */
START_TEST(spare_action_block)
{
	game g;
	game_open(&g, "Ana; Ben", "Seed", "spare", NULL, NULL);
	ck_assert_ptr_nonnull(g.s);
	hg_action_text t1, t2;
	action_text(&t1, "P1", "win 3 #2");
	action_text(&t2, "P2", "draw ?");
	hg_action *a = hg_koc_class.parse(g.s, &t1, &g.d);
	hg_action *b = hg_koc_class.parse(g.s, &t2, &g.d);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_ne(a, b);
	ck_assert_ptr_eq(a->home, g.s->actions);
	ck_assert_uint_eq(g.s->actions->refs, 3);
	hg_koc_class.free_action(a);
	ck_assert_ptr_eq(g.s->actions->spare, a);
	hg_koc_class.free_action(b);	/* the spare is taken: b is freed */
	ck_assert_uint_eq(g.s->actions->refs, 1);
	/* The spare again: the sector and marker of the 'win' are gone. */
	hg_action *c = hg_koc_class.parse(g.s, &t2, &g.d);
	ck_assert_ptr_eq(c, a);
	ck_assert_int_eq(c->verb, KOC_DRAW);
	ck_assert_uint_eq(c->sector, 0);
	ck_assert_uint_eq(c->marker, 0);
	ck_assert_uint_eq(c->sector_pos.line, 0);
	ck_assert_uint_eq(c->ncards, 1);
	ck_assert_int_eq(c->card[0], KOC_HIDDEN);
	/* The states go first; the action holds the cache. */
	hg_state *clone = hg_koc_class.clone(g.s);
	ck_assert_uint_eq(g.s->actions->refs, 3);
	hg_koc_class.free_state(clone);
	hg_koc_class.free_state(g.s);
	g.s = NULL;
	ck_assert_uint_eq(c->home->refs, 1);
	ck_assert_int_eq(c->verb, KOC_DRAW);
	hg_koc_class.free_action(c);	/* frees the cache, and c */
	hg_action_text_free(&t1);
	hg_action_text_free(&t2);
	ck_assert_uint_eq(g.d.n, 0);
	game_close(&g);
}
END_TEST

START_TEST(two_decks_ids)
{
	game g;
	game_open(&g, "Ana; Ben; Clara", "Seed", "three", NULL, NULL);
	ck_assert_ptr_nonnull(g.s);
	ck_assert_uint_eq(g.s->cards->n, 112);
	hg_action_text t;
	action_text(&t, "P1", "place c12 1");
	ck_assert_ptr_null(hg_koc_class.parse(g.s, &t, &g.d));
	ck_assert_str_eq(last_code(&g), "koc.unknown-card");
	hg_action_text_free(&t);
	action_text(&t, "P1", "place c12b 1");
	hg_action *a = hg_koc_class.parse(g.s, &t, &g.d);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(g.s->cards->ids[a->card[0]], "c12b");
	hg_koc_class.free_action(a);
	hg_action_text_free(&t);
	game_close(&g);
}
END_TEST

START_TEST(setup_errors)
{
	static const struct {
		const char *players, *tag, *value, *first, *variant, *code;
	} cases[] = {
		{ "Ana", "Seed", "x", NULL, NULL, "koc.players" },
		{ "A; B; C; D; E", "Seed", "x", NULL, NULL, "koc.players" },
		{ "Ana; P1", "Seed", "x", NULL, NULL, "koc.players" },
		{ "Ana; Ben", "Seed", "x", NULL, "cards", "koc.variant" },
		{ "Ana; Ben", NULL, NULL, "Carl", NULL, "koc.first-player" },
		{ "Ana; Ben", "DeckOrder", "c01 c02", "P1", NULL, "koc.deck-order" },
		{ "Ana; Ben", "DeckOrder", "c01 c01", "P1", NULL, "koc.deck-order" },
		{ "Ana; Ben", "DeckOrder", "c01 x99", "P1", NULL, "koc.unknown-card" },
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(cases); i++) {
		game g;
		game_open(&g, cases[i].players, cases[i].tag, cases[i].value, cases[i].first,
			  cases[i].variant);
		ck_assert_msg(g.s == NULL, "case %zu sets up", i);
		int found = 0;
		for (size_t k = 0; k < g.d.n; k++)
			found |= strcmp(g.d.v[k].code, cases[i].code) == 0;
		ck_assert_msg(found, "case %zu: no %s", i, cases[i].code);
		game_close(&g);
	}
	/* The Seed's lot, and a First that contradicts it. */
	game g;
	game_open(&g, "Ana; Ben; Clara; Dario", "Seed", "lot", NULL, NULL);
	ck_assert_ptr_nonnull(g.s);
	unsigned lot = g.s->first;
	game_close(&g);
	hg_prng r;
	hg_prng_seed(&r, "lot/first");
	ck_assert_uint_eq(lot, hg_prng_below(&r, 4));
	const char *other = lot == 0 ? "P2" : "P1";
	game_open(&g, "Ana; Ben; Clara; Dario", "Seed", "lot", other, NULL);
	ck_assert_ptr_null(g.s);
	ck_assert_str_eq(last_code(&g), "koc.first-player");
	game_close(&g);
}
END_TEST

/* Ruling 2: with neither First nor Seed, the seat dealt first plays first. */
START_TEST(first_player_from_the_deal)
{
	game g;
	game_open(&g, "Ana; Ben; Clara", NULL, NULL, NULL, NULL);
	ck_assert_ptr_nonnull(g.s);
	ck_assert_ptr_null(hg_koc_class.to_move(g.s));
	hg_action_list l = { 0 };
	hg_koc_class.legal(g.s, &l);
	ck_assert_uint_eq(l.n, 3);	/* any seat may be dealt first */
	for (size_t i = 0; i < l.n; i++)
		hg_koc_class.free_action(l.v[i]);
	free(l.v);
	ck_assert_int_eq(play(&g, "P2", "draw ?"), -1);
	ck_assert_str_eq(last_code(&g), "koc.deal");
	ck_assert_int_eq(play(&g, "Clara", "deal ? ? ? ? ?"), 0);
	ck_assert_str_eq(hg_koc_class.to_move(g.s), "P1");
	ck_assert_int_eq(play(&g, "P2", "deal ? ? ? ? ?"), -1);
	ck_assert_str_eq(last_code(&g), "koc.out-of-turn");
	ck_assert_int_eq(play(&g, "P1", "deal ? ? ? ? ?"), 0);
	ck_assert_int_eq(play(&g, "P2", "deal ? ? ? ? ?"), 0);
	ck_assert_str_eq(hg_koc_class.to_move(g.s), "P3");
	ck_assert_int_eq(play(&g, "P3", "draw ?"), 0);
	game_close(&g);
}
END_TEST

START_TEST(seed_orders_the_deck)
{
	game g;
	game_open(&g, "Ana; Ben", "Seed", "club-final-3", NULL, NULL);
	ck_assert_ptr_nonnull(g.s);
	uint16_t want[56];
	for (int i = 0; i < 56; i++)
		want[i] = (uint16_t)i;
	hg_prng r;
	hg_prng_seed(&r, "club-final-3");
	hg_prng_shuffle(&r, want, 56, sizeof want[0]);
	for (int i = 0; i < 56; i++)
		ck_assert_uint_eq(g.s->order[i], want[i]);
	game_close(&g);
}
END_TEST

/* A short scripted game with the deck in file order (c01 on top), P1 first.
 * P1 is dealt c01..c05 (lance x3, bow x2), P2 c06..c10 (bow, swords x2,
 * helmet, banner). */
static void deal_file_order(game *g)
{
	ck_assert_int_eq(play(g, "P1", "deal c01 c02 c03 c04 c05"), 0);
	ck_assert_int_eq(play(g, "P2", "deal c06 c07 c08 c09 c10"), 0);
}

START_TEST(turn_sequence_errors)
{
	game g;
	char *order = file_order();
	game_open(&g, "Ana; Ben", "DeckOrder", order, "P1", NULL);
	free(order);
	ck_assert_int_eq(hg_koc_class.turn(g.s), 1);
	ck_assert_int_eq(play(&g, "P2", "deal c06 c07 c08 c09 c10"), -1);
	ck_assert_str_eq(last_code(&g), "koc.out-of-turn");
	ck_assert_int_eq(play(&g, "P1", "draw c01"), -1);
	ck_assert_str_eq(last_code(&g), "koc.deal");
	ck_assert_int_eq(play(&g, "P1", "deal c01 c02 c03 c04 c06"), -1);
	ck_assert_str_eq(last_code(&g), "koc.draw-mismatch");
	deal_file_order(&g);
	ck_assert_int_eq(play(&g, "P1", "deal c11 c12 c13 c14 c15"), -1);
	ck_assert_str_eq(last_code(&g), "koc.deal");
	ck_assert_int_eq(play(&g, "P1", "place c01 1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.draw-missing");
	ck_assert_int_eq(play(&g, "P1", "draw c12"), -1);
	ck_assert_str_eq(last_code(&g), "koc.draw-mismatch");
	ck_assert_int_eq(play(&g, "P1", "draw c11"), 0);
	ck_assert_int_eq(play(&g, "P1", "draw c12"), -1);
	ck_assert_str_eq(last_code(&g), "koc.draw-twice");
	ck_assert_int_eq(play(&g, "P1", "place c06 1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-in-hand");
	ck_assert_int_eq(play(&g, "P1", "win 1 #1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-won");
	ck_assert_int_eq(play(&g, "P1", "place c01 1"), 0);
	ck_assert_int_eq(play(&g, "P1", "draw c12"), -1);
	ck_assert_str_eq(last_code(&g), "koc.out-of-turn");
	ck_assert_int_eq(play(&g, "P2", "draw ?"), 0);	/* c12 */
	ck_assert_int_eq(play(&g, "P2", "place c12 1"), 0);
	ck_assert_int_eq(hg_koc_class.turn(g.s), 2);
	/* P1 fills sector 1 and finds it full. */
	const char *p1[] = { "c02", "c03", "c04" };
	const char *p2[] = { "c06", "c07", "c08" };
	for (int i = 0; i < 3; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "draw c%02d", 13 + 2 * i);
		ck_assert_int_eq(play(&g, "P1", buf), 0);
		snprintf(buf, sizeof buf, "place %s 1", p1[i]);
		ck_assert_int_eq(play(&g, "P1", buf), 0);
		snprintf(buf, sizeof buf, "draw c%02d", 14 + 2 * i);
		ck_assert_int_eq(play(&g, "P2", buf), 0);
		snprintf(buf, sizeof buf, "place %s 2", p2[i]);
		ck_assert_int_eq(play(&g, "P2", buf), 0);
	}
	ck_assert_int_eq(play(&g, "P1", "draw c19"), 0);
	ck_assert_int_eq(play(&g, "P1", "place c05 1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.sector-full");
	ck_assert_uint_eq(g.d.nunverified, 0);
	game_close(&g);
}
END_TEST

/* The proof fires: P1 is dealt c37..c40 and gathers them in sector 3:
 * regiments of banners and helmets, battalions of swords, bows and lances.
 * Beating that takes two regiments with three battalions, or three
 * regiments.  The other cards showing both banner and helmet are c24, c30,
 * c33, c34 and the all-five c55 and c56: any four of them that P2 could
 * still hold make two battalions at most besides the two regiments (c34
 * lies in P2's sector 2).  The only four other cards sharing three kinds,
 * c35 c36 c55 c56, cannot all be had: c35 and c36 lie in P2's sector 2.
 * So territory 3 is won the moment P1's fourth card lands, although P2 has
 * no card there. */
START_TEST(territory_won_early)
{
	game g;
	hg_buf order;
	hg_buf_init(&order);
	hg_buf_puts(&order, "c37 c38 c39 c40 c01 c36 c35 c34 c33 c32");
	for (int i = 2; i <= 31; i++)
		hg_buf_printf(&order, " c%02d", i);
	for (int i = 41; i <= 56; i++)
		hg_buf_printf(&order, " c%02d", i);
	game_open(&g, "Ana; Ben", "DeckOrder", order.data, "P1", NULL);
	hg_buf_free(&order);
	ck_assert_ptr_nonnull(g.s);
	ck_assert_int_eq(play(&g, "P1", "deal c37 c38 c39 c40 c01"), 0);
	ck_assert_int_eq(play(&g, "P2", "deal c36 c35 c34 c33 c32"), 0);
	const char *p1[] = { "c37", "c38", "c39" };
	const char *p2[] = { "c36", "c35", "c34" };
	for (int i = 0; i < 3; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "draw c%02d", 2 + 2 * i);
		ck_assert_int_eq(play(&g, "P1", buf), 0);
		snprintf(buf, sizeof buf, "place %s 3", p1[i]);
		ck_assert_int_eq(play(&g, "P1", buf), 0);
		snprintf(buf, sizeof buf, "draw c%02d", 3 + 2 * i);
		ck_assert_int_eq(play(&g, "P2", buf), 0);
		/* P2 gathers c36 c35 c34 in sector 2 */
		snprintf(buf, sizeof buf, "place %s 2", p2[i]);
		ck_assert_int_eq(play(&g, "P2", buf), 0);
	}
	ck_assert_uint_eq(g.s->npending, 0);
	ck_assert_int_eq(play(&g, "P1", "draw c08"), 0);
	ck_assert_int_eq(play(&g, "P1", "place c40 3"), 0);
	ck_assert_uint_eq(g.s->npending, 1);
	ck_assert_int_eq(g.s->winner[2], 0);
	ck_assert_str_eq(hg_koc_class.to_move(g.s), "P1");
	/* legal(): only the claim. */
	hg_action_list l = { 0 };
	hg_koc_class.legal(g.s, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0]->verb, KOC_WIN);
	ck_assert_uint_eq(l.v[0]->sector, 3);
	ck_assert_uint_eq(l.v[0]->marker, 1);
	hg_koc_class.free_action(l.v[0]);
	free(l.v);
	ck_assert_int_eq(play(&g, "P2", "draw c09"), -1);
	ck_assert_str_eq(last_code(&g), "koc.claim-missing");
	ck_assert_int_eq(play(&g, "P2", "win 3 #1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-won");
	ck_assert_int_eq(play(&g, "P1", "win 2 #1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-won");
	ck_assert_int_eq(play(&g, "P1", "win 3 #2"), -1);
	ck_assert_str_eq(last_code(&g), "koc.marker-number");
	ck_assert_int_eq(play(&g, "P1", "win 3 #1"), 0);
	ck_assert_str_eq(hg_koc_class.to_move(g.s), "P2");
	ck_assert_int_eq(play(&g, "P1", "win 3 #1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-won");
	/* P2 may still place cards there (and does). */
	ck_assert_int_eq(play(&g, "P2", "draw c09"), 0);
	ck_assert_int_eq(play(&g, "P2", "place c33 3"), 0);
	ck_assert_uint_eq(g.s->npending, 0);
	ck_assert_uint_eq(g.d.nerrors, 5);
	game_close(&g);
}
END_TEST

/* The proof does not fire: c36..c39 make a regiment of banners and four
 * battalions, but c40 is still in the deck, and c40, c34, c33, c30 would
 * make regiments of banners and helmets. */
START_TEST(territory_not_yet_won)
{
	game g;
	hg_buf order;
	hg_buf_init(&order);
	hg_buf_puts(&order, "c36 c37 c38 c39 c01 c02 c03 c04 c05 c06");
	for (int i = 7; i <= 35; i++)
		hg_buf_printf(&order, " c%02d", i);
	for (int i = 41; i <= 56; i++)
		hg_buf_printf(&order, " c%02d", i);
	hg_buf_puts(&order, " c40");
	game_open(&g, "Ana; Ben", "DeckOrder", order.data, "P1", NULL);
	hg_buf_free(&order);
	ck_assert_int_eq(play(&g, "P1", "deal c36 c37 c38 c39 c01"), 0);
	ck_assert_int_eq(play(&g, "P2", "deal c02 c03 c04 c05 c06"), 0);
	const char *p1[] = { "c36", "c37", "c38", "c39" };
	const char *p2[] = { "c02", "c03", "c04", "c05" };
	for (int i = 0; i < 4; i++) {
		char buf[32];
		snprintf(buf, sizeof buf, "draw c%02d", 7 + 2 * i);
		ck_assert_int_eq(play(&g, "P1", buf), 0);
		snprintf(buf, sizeof buf, "place %s 4", p1[i]);
		ck_assert_int_eq(play(&g, "P1", buf), 0);
		snprintf(buf, sizeof buf, "draw c%02d", 8 + 2 * i);
		ck_assert_int_eq(play(&g, "P2", buf), 0);
		snprintf(buf, sizeof buf, "place %s 1", p2[i]);
		ck_assert_int_eq(play(&g, "P2", buf), 0);
	}
	ck_assert_uint_eq(g.s->npending, 0);
	ck_assert_int_eq(g.s->winner[3], -1);
	hg_buf b;
	hg_buf_init(&b);
	hg_koc_key_describe(hg_koc_sector_key(g.s, 0, 3), &b);
	ck_assert_str_eq(b.data, "regiment banner; battalions helmet, swords, bow, lance");
	hg_buf_free(&b);
	ck_assert_int_eq(play(&g, "P1", "win 4 #1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-won");
	ck_assert_ptr_null(hg_koc_class.result(g.s));
	game_close(&g);
}
END_TEST

/* Plays a whole game choosing uniformly among legal(), checking each listed
 * action is accepted, that the game ends, and that the result agrees with
 * an independent count of the markers. */
static void random_game(const char *players, const char *seed, const char *variant,
			int hide)
{
	game g;
	game_open(&g, players, hide ? NULL : "Seed", seed, hide ? "P1" : NULL, variant);
	ck_assert_ptr_nonnull(g.s);
	hg_prng r;
	hg_prng_seed(&r, seed);
	size_t actions = 0;
	unsigned claims = 0;
	while (!hg_koc_class.result(g.s)) {
		hg_action_list l = { 0 };
		hg_koc_class.legal(g.s, &l);
		ck_assert_uint_gt(l.n, 0);
		hg_action *a = l.v[hg_prng_below(&r, (uint32_t)l.n)];
		/* Round trip through the notation. */
		hg_buf seat, body;
		hg_buf_init(&seat);
		hg_buf_init(&body);
		hg_koc_class.format(g.s, a, &seat, &body);
		ck_assert_int_eq(play(&g, seat.data, body.data), 0);
		assert_derived(g.s);
		claims += a->verb == KOC_WIN;
		hg_buf_free(&seat);
		hg_buf_free(&body);
		for (size_t i = 0; i < l.n; i++)
			hg_koc_class.free_action(l.v[i]);
		free(l.v);
		ck_assert_uint_lt(++actions, 1000);
	}
	ck_assert_uint_eq(claims, 5);
	ck_assert_uint_eq(g.d.nerrors, 0);
	if (!hide)
		ck_assert_uint_eq(g.d.n, 0);
	/* Every territory won; the markers 1..5 each once. */
	unsigned count[4] = { 0 }, seen = 0;
	for (int k = 0; k < 5; k++) {
		ck_assert_int_ge(g.s->winner[k], 0);
		count[g.s->winner[k]]++;
		seen |= 1u << g.s->marker[k];
	}
	ck_assert_uint_eq(seen, 0x3eu);
	if (!variant) {
		/* The winner holds most markers; on a tie, the lower highest. */
		const char *res = hg_koc_class.result(g.s);
		unsigned w = (unsigned)(res[1] - '1');
		for (unsigned p = 0; p < g.s->nplayers; p++) {
			ck_assert_uint_ge(count[w], count[p]);
			if (p != w && count[p] == count[w]) {
				unsigned hw = 0, hp = 0;
				for (int k = 0; k < 5; k++) {
					if (g.s->winner[k] == (int)w && g.s->marker[k] > hw)
						hw = g.s->marker[k];
					if (g.s->winner[k] == (int)p && g.s->marker[k] > hp)
						hp = g.s->marker[k];
				}
				ck_assert_uint_lt(hw, hp);
			}
		}
	}
	/* render() shows every player and the territories. */
	hg_buf out;
	hg_buf_init(&out);
	hg_koc_class.render(g.s, &out);
	ck_assert_ptr_nonnull(strstr(out.data, "territories:"));
	ck_assert_ptr_nonnull(strstr(out.data, "over: "));
	hg_buf_free(&out);
	game_close(&g);
}

START_TEST(random_games_end)
{
	static const char *const players[] = { "A; B", "A; B; C", "A; B; C; D" };
	char seed[32];
	for (int i = 0; i < 12; i++) {
		snprintf(seed, sizeof seed, "random-%d", i);
		random_game(players[i % 3], seed, i % 2 ? "points" : NULL, 0);
	}
}
END_TEST

START_TEST(random_games_hidden)
{
	/* No deck order: legal() offers '?' draws and unseen cards. */
	random_game("A; B", "hidden-1", NULL, 1);
	random_game("A; B; C; D", "hidden-2", NULL, 1);
}
END_TEST

START_TEST(points_result)
{
	game g;
	game_open(&g, "A; B; C", "Seed", "pts", NULL, "points");
	ck_assert_ptr_nonnull(g.s);
	hg_prng r;
	hg_prng_seed(&r, "pts-moves");
	while (!hg_koc_class.result(g.s)) {
		hg_action_list l = { 0 };
		hg_koc_class.legal(g.s, &l);
		ck_assert_int_eq(hg_koc_class.apply(g.s, l.v[hg_prng_below(&r, (uint32_t)l.n)], &g.d), 0);
		for (size_t i = 0; i < l.n; i++)
			hg_koc_class.free_action(l.v[i]);
		free(l.v);
	}
	/* Recount: 3 for the territory, 2 and 1 for the next complete armies. */
	unsigned pts[3] = { 0 };
	for (unsigned k = 0; k < 5; k++) {
		pts[g.s->winner[k]] += 3;
		int rank[3], n = 0;
		for (unsigned p = 0; p < 3; p++)
			if (g.s->nsector[p][k] == 4 && (int)p != g.s->winner[k])
				rank[n++] = (int)p;
		if (n == 2 && hg_koc_army_cmp(hg_koc_sector_key(g.s, (unsigned)rank[1], k),
					      g.s->completed[rank[1]][k],
					      hg_koc_sector_key(g.s, (unsigned)rank[0], k),
					      g.s->completed[rank[0]][k]) > 0) {
			int t = rank[0];
			rank[0] = rank[1];
			rank[1] = t;
		}
		for (int i = 0; i < n; i++)
			pts[rank[i]] += 2 - (unsigned)i;
	}
	char want[64];
	unsigned best = 0;
	for (unsigned p = 1; p < 3; p++)
		if (pts[p] > pts[best])
			best = p;
	snprintf(want, sizeof want, "(P1 %u, P2 %u, P3 %u)", pts[0], pts[1], pts[2]);
	const char *res = hg_koc_class.result(g.s);
	ck_assert_ptr_nonnull(strstr(res, want));
	if ((pts[0] == pts[best]) + (pts[1] == pts[best]) + (pts[2] == pts[best]) == 1)
		ck_assert_uint_eq((unsigned)(res[1] - '1'), best);
	game_close(&g);
}
END_TEST

START_TEST(hidden_cards)
{
	game g;
	game_open(&g, "Ana; Ben", NULL, NULL, "P2", NULL);
	ck_assert_ptr_nonnull(g.s);
	ck_assert_int_eq(play(&g, "P2", "deal c01 ? ? ? ?"), 0);
	ck_assert_int_eq(play(&g, "P1", "deal ? ? ? ? c01"), -1);
	ck_assert_str_eq(last_code(&g), "koc.card-seen");
	ck_assert_int_eq(play(&g, "P1", "deal c02 c03 c04 c05 c06"), 0);
	ck_assert_int_eq(play(&g, "P2", "draw c02"), -1);
	ck_assert_str_eq(last_code(&g), "koc.card-seen");
	ck_assert_int_eq(play(&g, "P2", "draw ?"), 0);
	/* A card P1 is known to hold: illegal.  An unseen one: unverified. */
	ck_assert_int_eq(play(&g, "P2", "place c02 1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-in-hand");
	ck_assert_uint_eq(g.d.nunverified, 0);
	ck_assert_int_eq(play(&g, "P2", "place c40 1"), 0);
	ck_assert_uint_eq(g.d.nunverified, 1);
	ck_assert_str_eq(last_code(&g), "koc.hidden-card");
	ck_assert_uint_eq(g.s->hidden[1], 4);
	/* P1 holds no hidden card: an unseen card is not in P1's hand. */
	ck_assert_int_eq(play(&g, "P1", "draw c07"), 0);
	ck_assert_int_eq(play(&g, "P1", "place c39 1"), -1);
	ck_assert_str_eq(last_code(&g), "koc.not-in-hand");
	ck_assert_int_eq(play(&g, "P1", "place c07 1"), 0);
	/* legal(): P2 may draw '?' or any unseen card. */
	hg_action_list l = { 0 };
	hg_koc_class.legal(g.s, &l);
	ck_assert_uint_eq(l.n, 1 + 56 - 8);	/* c01..c07 and c40 are seen */
	for (size_t i = 0; i < l.n; i++)
		hg_koc_class.free_action(l.v[i]);
	free(l.v);
	game_close(&g);
}
END_TEST

/* Ruling 10: once the deck is empty and P1's hand is all known, every card
 * not yet seen is in P2's hand, so P2's placements are certain again.  The
 * shipped deck never runs out (2 x 5 dealt and 40 drawn of 56): a deck of
 * 40 does. */
START_TEST(hidden_cards_after_the_deck)
{
	game g;
	game_open_with(&g, forty_cards(), "Ana; Ben", NULL, NULL, "P1", NULL);
	unsigned before = 0, after = 0, placed_before = 0, placed_after = 0;
	while (!hg_koc_class.result(g.s)) {
		hg_action_list l = { 0 };
		hg_koc_class.legal(g.s, &l);
		ck_assert_uint_gt(l.n, 0);
		/* P1's cards are named, P2's hidden: take P1's first named card
		 * and P2's '?' (listed first). */
		hg_action *a = l.v[0];
		if (a->verb != KOC_WIN && a->seat == 0 && l.n > 1 && a->ncards &&
		    a->card[0] == KOC_HIDDEN)
			a = l.v[1];
		if (a->verb == KOC_DEAL && a->seat == 0)
			for (unsigned k = 0; k < KOC_HAND; k++)
				a->card[k] = (int)k;	/* c01 .. c05 */
		size_t n = g.d.nunverified;
		int deck_empty = g.s->dealt == g.s->cards->n;
		ck_assert_int_eq(hg_koc_class.apply(g.s, a, &g.d), 0);
		if (a->verb == KOC_PLACE && a->seat == 1) {
			if (deck_empty) {
				after += (unsigned)(g.d.nunverified - n);
				placed_after++;
			} else {
				before += (unsigned)(g.d.nunverified - n);
				placed_before++;
			}
		}
		for (size_t i = 0; i < l.n; i++)
			hg_koc_class.free_action(l.v[i]);
		free(l.v);
	}
	ck_assert_uint_eq(g.d.nerrors, 0);
	/* Each of P2's placements is unverified while the deck lasts, none after. */
	ck_assert_uint_eq(before, placed_before);
	ck_assert_uint_ge(placed_before, 10);
	ck_assert_uint_gt(placed_after, 0);
	ck_assert_uint_eq(after, 0);
	game_close(&g);
}
END_TEST

START_TEST(legal_listing)
{
	game g;
	char *order = file_order();
	game_open(&g, "Ana; Ben", "DeckOrder", order, "P2", NULL);
	free(order);
	hg_action_list l = { 0 };
	hg_koc_class.legal(g.s, &l);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_int_eq(l.v[0]->verb, KOC_DEAL);
	ck_assert_uint_eq(l.v[0]->seat, 1);
	ck_assert_int_eq(l.v[0]->card[4], 4);	/* c05 */
	hg_koc_class.free_action(l.v[0]);
	free(l.v);
	ck_assert_int_eq(play(&g, "P2", "deal c01 c02 c03 c04 c05"), 0);
	ck_assert_int_eq(play(&g, "P1", "deal c06 c07 c08 c09 c10"), 0);
	ck_assert_int_eq(play(&g, "P2", "draw c11"), 0);
	memset(&l, 0, sizeof l);
	hg_koc_class.legal(g.s, &l);
	/* Six cards in hand, five empty sectors. */
	ck_assert_uint_eq(l.n, 30);
	for (size_t i = 0; i < l.n; i++) {
		ck_assert_int_eq(l.v[i]->verb, KOC_PLACE);
		ck_assert_int_eq(g.s->loc[l.v[i]->card[0]], KOC_IN_HAND + 1);
		hg_koc_class.free_action(l.v[i]);
	}
	free(l.v);
	ck_assert_str_eq(hg_koc_class.to_move(g.s), "P2");
	hg_buf out;
	hg_buf_init(&out);
	hg_koc_class.render(g.s, &out);
	ck_assert_ptr_nonnull(strstr(out.data, "c11 [lance bow]"));
	ck_assert_ptr_nonnull(strstr(out.data, "to move: P2, to place a card"));
	ck_assert_ptr_nonnull(strstr(out.data, "deck: 45 cards"));
	hg_buf_free(&out);
	game_close(&g);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("kingdoms-of-crusaders");
	TCase *tc = tcase_create("army");
	tcase_set_timeout(tc, 60);	/* (ranking_is_a_strict_weak_order compares 300 armies) */
	tcase_add_test(tc, squads_of_an_army);
	tcase_add_test(tc, key_is_the_sum_over_kinds);
	tcase_add_test(tc, card_symbols_print_weakest_first);
	tcase_add_loop_test(tc, ranking_every_level, 0, (int)HG_ARRAY_LEN(level_cases));
	tcase_add_test(tc, ranking_all_alike_first_to_complete);
	tcase_add_test(tc, ranking_is_a_strict_weak_order);
	suite_add_tcase(s, tc);
	tc = tcase_create("early-win");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, early_win_must_fire);
	tcase_add_test(tc, early_win_must_not_fire);
	tcase_add_test(tc, early_win_matches_brute_force);
	tcase_add_test(tc, early_win_large_pools);
	suite_add_tcase(s, tc);
	tc = tcase_create("data");
	tcase_add_loop_test(tc, deck_diagnostics, 0, (int)HG_ARRAY_LEN(deck_cases));
	tcase_add_test(tc, deck_good_and_two_decks);
	tcase_add_test(tc, deck_own_locations);
	tcase_add_test(tc, shipped_deck);
	tcase_add_test(tc, cards_by_number);
	tcase_add_test(tc, session_cache);
	tcase_add_test(tc, session_cache_keeps_failures);
	suite_add_tcase(s, tc);
	tc = tcase_create("engine");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, parse_actions);
	tcase_add_test(tc, canonical_shapes_match_patterns);
	tcase_add_test(tc, two_decks_ids);
	tcase_add_test(tc, spare_action_block);
	tcase_add_test(tc, setup_errors);
	tcase_add_test(tc, first_player_from_the_deal);
	tcase_add_test(tc, seed_orders_the_deck);
	tcase_add_test(tc, turn_sequence_errors);
	tcase_add_test(tc, territory_won_early);
	tcase_add_test(tc, territory_not_yet_won);
	tcase_add_test(tc, random_games_end);
	tcase_add_test(tc, random_games_hidden);
	tcase_add_test(tc, points_result);
	tcase_add_test(tc, hidden_cards);
	tcase_add_test(tc, hidden_cards_after_the_deck);
	tcase_add_test(tc, legal_listing);
	suite_add_tcase(s, tc);
	return s;
}

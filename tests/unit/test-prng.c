/* test-prng.c - the documented PRNG: known answers from an independent
 * implementation of herald-notation(5)'s CHANCE section, and properties. */
#include "unit.h"

#include <string.h>

#include "herald.h"
#include "internal.h"

/* RFC 8439, A.1 test vector #1: an all-zero key and nonce, block 0, begins
 * with the bytes 76 b8 e0 ad: the keystream is read as little-endian words. */
START_TEST(chacha20_rfc8439_vector)
{
	hg_prng r;
	hg_prng_seed(&r, "anything");
	memset(r.key, 0, sizeof r.key);
	r.block = 0;
	r.used = sizeof r.stream;
	ck_assert_uint_eq(hg_prng_u32(&r), 0xade0b876u);
}
END_TEST

START_TEST(seed_words_known_answer)
{
	hg_prng r;
	hg_prng_seed(&r, "herald");
	ck_assert_uint_eq(hg_prng_u32(&r), 3030503853u);
	ck_assert_uint_eq(hg_prng_u32(&r), 2597687351u);
	ck_assert_uint_eq(hg_prng_u32(&r), 2394340780u);
}
END_TEST

/* The first dice of the stream of the Seed "herald". */
static const unsigned herald_dice[20] = { 4, 6, 5, 5, 6, 6, 5, 4, 4, 1,
					  4, 5, 1, 3, 5, 4, 3, 3, 6, 3 };

START_TEST(dice_known_answer)
{
	hg_prng r;
	hg_prng_seed(&r, "herald");
	for (int i = 0; i < 20; i++)
		ck_assert_uint_eq(hg_prng_die(&r, 6), herald_dice[i]);
}
END_TEST

START_TEST(shuffle_known_answer)
{
	static const int want[10] = { 0, 4, 5, 8, 9, 1, 3, 6, 2, 7 };
	int v[10];
	for (int i = 0; i < 10; i++)
		v[i] = i;
	hg_prng r;
	hg_prng_seed(&r, "club-final-3");
	hg_prng_shuffle(&r, v, 10, sizeof v[0]);
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(v[i], want[i]);
}
END_TEST

/* 1000000007 rejects some words: the rejection path is exercised. */
START_TEST(below_large_known_answer)
{
	static const uint32_t want[5] = { 374563123u, 802811741u, 946805598u,
					  615249862u, 780323179u };
	hg_prng r;
	hg_prng_seed(&r, "");
	for (int i = 0; i < 5; i++)
		ck_assert_uint_eq(hg_prng_below(&r, 1000000007u), want[i]);
}
END_TEST

/* below() as herald-notation(5) states it, from the words themselves. */
static uint32_t below_as_stated(hg_prng *r, uint32_t n)
{
	if (n <= 1)
		return 0;
	uint64_t limit = ((uint64_t)1 << 32) - ((uint64_t)1 << 32) % n;
	for (;;) {
		uint32_t w = hg_prng_u32(r);
		if (w < limit)
			return w % n;
	}
}

/* Every bound, small and near 2^32 (where most words are rejected), on
 * two copies of one stream: the same answers, and the streams stay in
 * step. */
START_TEST(below_is_as_stated)
{
	static const uint32_t bounds[] = { 2, 3, 6, 7, 52, 1000, 65537, 1000000007u,
					   0x80000000u, 0x80000001u, 0xC0000001u,
					   0xFFFFFFF0u, 0xFFFFFFFFu };
	hg_prng a, b;
	hg_prng_seed(&a, "below as stated");
	b = a;
	for (int round = 0; round < 300; round++)
		for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
			uint32_t n = bounds[i] - (uint32_t)(round % 3);
			ck_assert_uint_eq(hg_prng_below(&a, n), below_as_stated(&b, n));
		}
	ck_assert_uint_eq(hg_prng_u32(&a), hg_prng_u32(&b));
}
END_TEST

/* The inline draws the games call with constant bounds (a die's six
 * sides), the bounds constant as in the games, small and near 2^32 (most
 * words rejected): as stated, and the streams stay in step. */
START_TEST(inline_draws_are_as_stated)
{
	hg_prng a, b;
	hg_prng_seed(&a, "inline draws");
	b = a;
	for (int i = 0; i < 20000; i++) {
		ck_assert_uint_eq(hg_prng_die_inline(&a, 6), 1 + below_as_stated(&b, 6));
		ck_assert_uint_eq(hg_prng_below_inline(&a, 52), below_as_stated(&b, 52));
		ck_assert_uint_eq(hg_prng_below_inline(&a, 0xFFFFFFF0u),
				  below_as_stated(&b, 0xFFFFFFF0u));
		ck_assert_uint_eq(hg_prng_below_inline(&a, 1), 0);
		ck_assert_uint_eq(hg_prng_word(&a), hg_prng_u32(&b));
	}
	ck_assert_uint_eq(hg_prng_u32(&a), hg_prng_u32(&b));
}
END_TEST

/* The wide stream (eight blocks a call) is the stream: the same words and
 * dice as hg_prng's of the same seed, across many batches, with dice and
 * words interleaved so that batches end at every offset. */
START_TEST(wide_stream_is_the_stream)
{
	static const char *const seeds[] = { "herald", "84c903547bba52ef/dice", "" };
	for (size_t k = 0; k < sizeof seeds / sizeof *seeds; k++) {
		hg_prng narrow;
		hg_prng_wide wide;
		hg_prng_seed(&narrow, seeds[k]);
		hg_prng_wide_seed(&wide, seeds[k]);
		ck_assert_mem_eq(narrow.key, wide.key, sizeof narrow.key);
		for (int i = 0; i < 6000; i++) {
			if (i % 3 == 0)
				ck_assert_uint_eq(hg_prng_wide_word(&wide), hg_prng_u32(&narrow));
			ck_assert_uint_eq(hg_prng_wide_die(&wide, 6), hg_prng_die(&narrow, 6));
			if (i % 7 == 0)
				ck_assert_uint_eq(hg_prng_wide_die(&wide, 0xFFFFFFF0u),
						  hg_prng_die(&narrow, 0xFFFFFFF0u));
		}
		ck_assert_uint_eq(hg_prng_wide_die(&wide, 1), 1);
		ck_assert_uint_eq(hg_prng_wide_word(&wide), hg_prng_u32(&narrow));
	}
	/* the known answer of dice_known_answer, from the wide stream */
	hg_prng_wide w;
	hg_prng_wide_seed(&w, "herald");
	for (int i = 0; i < 20; i++)
		ck_assert_uint_eq(hg_prng_wide_die(&w, 6), herald_dice[i]);
}
END_TEST

/* Bytes, ints and 8-byte items (swapped whole) are shuffled as items of
 * another size are (swapped byte by byte). */
START_TEST(item_shuffles_are_the_same_permutation)
{
	for (int n = 0; n < 60; n++) {
		unsigned char bytes[60];
		uint32_t ints[60];
		uint64_t longs[60];
		struct three { unsigned char v[3]; } threes[60];
		for (int i = 0; i < n; i++) {
			ints[i] = bytes[i] = (unsigned char)i;
			longs[i] = (uint64_t)i << 40 | (uint64_t)i;
			memset(threes[i].v, i, sizeof threes[i].v);
		}
		hg_prng a, b, c, e;
		hg_prng_seed(&a, "decks");
		b = c = e = a;
		hg_prng_shuffle(&a, bytes, (size_t)n, 1);
		hg_prng_shuffle(&b, ints, (size_t)n, sizeof ints[0]);
		hg_prng_shuffle(&c, longs, (size_t)n, sizeof longs[0]);
		hg_prng_shuffle(&e, threes, (size_t)n, sizeof threes[0]);
		for (int i = 0; i < n; i++) {
			ck_assert_uint_eq(bytes[i], threes[i].v[0]);
			ck_assert_uint_eq(ints[i], threes[i].v[1]);
			ck_assert_uint_eq(longs[i], (uint64_t)threes[i].v[2] << 40 | threes[i].v[2]);
		}
	}
}
END_TEST

START_TEST(below_stays_in_range_and_is_fair)
{
	hg_prng r;
	hg_prng_seed(&r, "fairness");
	unsigned counts[6] = { 0 };
	const unsigned n = 60000;
	for (unsigned i = 0; i < n; i++) {
		uint32_t v = hg_prng_below(&r, 6);
		ck_assert_uint_lt(v, 6);
		counts[v]++;
	}
	/* Chi-square with 5 degrees of freedom; 20.5 is the 0.1% tail.  The
	 * stream is fixed by the seed, so this cannot flake. */
	double chi = 0, e = n / 6.0;
	for (int i = 0; i < 6; i++)
		chi += (counts[i] - e) * (counts[i] - e) / e;
	ck_assert_double_lt(chi, 20.5);
	ck_assert_uint_eq(hg_prng_below(&r, 1), 0);
	ck_assert_uint_eq(hg_prng_below(&r, 0), 0);
}
END_TEST

START_TEST(shuffle_is_a_permutation_of_any_size)
{
	struct big { char bytes[300]; } v[7];
	for (int i = 0; i < 7; i++)
		memset(v[i].bytes, 'a' + i, sizeof v[i].bytes);
	hg_prng r;
	hg_prng_seed(&r, "big items");
	hg_prng_shuffle(&r, v, 7, sizeof v[0]);
	int seen[7] = { 0 }, moved = 0;
	for (int i = 0; i < 7; i++) {
		int k = v[i].bytes[0] - 'a';
		ck_assert(k >= 0 && k < 7);
		ck_assert_int_eq(v[i].bytes[299], 'a' + k);
		seen[k]++;
		moved += k != i;
	}
	for (int i = 0; i < 7; i++)
		ck_assert_int_eq(seen[i], 1);
	ck_assert_int_gt(moved, 0);
}
END_TEST

START_TEST(same_seed_same_stream_other_seed_other_stream)
{
	hg_prng a, b, c;
	hg_prng_seed(&a, "x");
	hg_prng_seed(&b, "x");
	hg_prng_seed(&c, "y");
	int differ = 0;
	for (int i = 0; i < 100; i++) {
		uint32_t wa = hg_prng_u32(&a);
		ck_assert_uint_eq(wa, hg_prng_u32(&b));
		differ += wa != hg_prng_u32(&c);
	}
	ck_assert_int_gt(differ, 90);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("prng");
	TCase *tc = tcase_create("prng");
	tcase_add_test(tc, chacha20_rfc8439_vector);
	tcase_add_test(tc, seed_words_known_answer);
	tcase_add_test(tc, dice_known_answer);
	tcase_add_test(tc, shuffle_known_answer);
	tcase_add_test(tc, below_large_known_answer);
	tcase_add_test(tc, below_stays_in_range_and_is_fair);
	tcase_add_test(tc, below_is_as_stated);
	tcase_add_test(tc, inline_draws_are_as_stated);
	tcase_add_test(tc, wide_stream_is_the_stream);
	tcase_add_test(tc, item_shuffles_are_the_same_permutation);
	tcase_add_test(tc, shuffle_is_a_permutation_of_any_size);
	tcase_add_test(tc, same_seed_same_stream_other_seed_other_stream);
	suite_add_tcase(s, tc);
	return s;
}

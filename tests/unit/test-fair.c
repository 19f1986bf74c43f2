/* test-fair.c - provably fair chance (herald-notation(5), FAIR CHANCE):
 * known answers computed by an independent BLAKE2b (Python's hashlib),
 * and the checks of SeedCommit, SeedReveal and the entropy tags. */
#include "unit.h"

#include <stdlib.h>
#include <string.h>

#include "herald.h"
#include "unit-parse.h"

#define SECRET "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define COMMIT "cb2f5160fc1f7e05a55ef49d340b48da2e5a78099d53393351cd579dd42503d6"

static hg_game_record *two_seats(void)
{
	hg_game_record *g = hg_record_new("t.hgn");
	hg_record_set_tag(g, "Game", "kingdoms-of-crusaders");
	hg_record_set_tag(g, "Players", "Ana; Ben");
	return g;
}

START_TEST(commit_known_answer)
{
	char c[HG_FAIR_HEX_LEN + 1];
	ck_assert_int_eq(hg_fair_commit(SECRET, c), 0);
	ck_assert_str_eq(c, COMMIT);
	ck_assert_int_eq(hg_fair_commit("00", c), -1);
	ck_assert_int_eq(hg_fair_commit("000102030405060708090A0B0C0D0E0F101112131415161718191a1b1c1d1e1f", c), -1);
}
END_TEST

START_TEST(effective_seed_known_answers)
{
	hg_game_record *g = two_seats();
	char s[HG_FAIR_HEX_LEN + 1];
	ck_assert_int_eq(hg_fair_effective_seed(g, SECRET, s), 0);
	ck_assert_str_eq(s, "d23c83ac19fe79537120306acd2e70e80508bc086552d203d461a25fccd7ba36");
	hg_record_set_tag(g, "Entropy1", "apple");
	ck_assert_int_eq(hg_fair_effective_seed(g, SECRET, s), 0);
	ck_assert_str_eq(s, "11f550b00a526d54fe123ec56ea4e0e3692cf57727847d8727551ca5ca869eb7");
	hg_record_set_tag(g, "Entropy2", "pear");
	ck_assert_int_eq(hg_fair_effective_seed(g, SECRET, s), 0);
	ck_assert_str_eq(s, "dca3a7050041f43f352d6fefc838528dd0d0b30cbd75d544064841668e4485c0");
	/* the record's chance seed is the effective seed once revealed */
	ck_assert_ptr_null(hg_record_chance_seed(g));
	hg_record_set_tag(g, "SeedCommit", COMMIT);
	hg_record_set_tag(g, "SeedReveal", SECRET);
	char *eff = hg_record_chance_seed(g);
	ck_assert_str_eq(eff, s);
	free(eff);
	ck_assert_str_eq(hg_record_chance_tag(g)->name, "SeedReveal");
	hg_record_free(g);
}
END_TEST

/* A changed contribution changes the effective seed. */
START_TEST(contribution_matters)
{
	hg_game_record *g = two_seats();
	char a[HG_FAIR_HEX_LEN + 1], b[HG_FAIR_HEX_LEN + 1];
	hg_record_set_tag(g, "Entropy1", "ab");
	hg_fair_effective_seed(g, SECRET, a);
	/* the length prefixes keep "ab" + "" apart from "a" + "b" */
	hg_record_set_tag(g, "Entropy1", "a");
	hg_record_set_tag(g, "Entropy2", "b");
	hg_fair_effective_seed(g, SECRET, b);
	ck_assert_str_ne(a, b);
	hg_record_free(g);
}
END_TEST

START_TEST(secret_is_random_and_committable)
{
	char a[HG_FAIR_HEX_LEN + 1], b[HG_FAIR_HEX_LEN + 1], c[HG_FAIR_HEX_LEN + 1];
	ck_assert_int_eq(hg_fair_secret_new(a), 0);
	ck_assert_int_eq(hg_fair_secret_new(b), 0);
	ck_assert_uint_eq(strlen(a), HG_FAIR_HEX_LEN);
	ck_assert_str_ne(a, b);
	ck_assert_int_eq(hg_fair_commit(a, c), 0);
}
END_TEST

static int check_codes(hg_game_record *g, const char *code)
{
	hg_diags d;
	hg_diags_init(&d);
	int rc = hg_fair_check(g, &d);
	if (code) {
		ck_assert_int_eq(rc, -1);
		ck_assert_uint_ge(d.n, 1);
		ck_assert_str_eq(d.v[0].code, code);
	} else {
		ck_assert_int_eq(rc, 0);
		ck_assert_uint_eq(d.n, 0);
	}
	hg_diags_free(&d);
	return rc;
}

START_TEST(check_commitment)
{
	hg_game_record *g = two_seats();
	check_codes(g, NULL);
	hg_record_set_tag(g, "SeedCommit", COMMIT);
	hg_record_set_tag(g, "Entropy2", "pear");
	check_codes(g, NULL);				/* committed, not revealed */
	hg_record_set_tag(g, "SeedReveal", SECRET);
	check_codes(g, NULL);				/* revealed, matching */
	/* a wrong seed */
	hg_record_set_tag(g, "SeedReveal",
			  "100102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
	check_codes(g, "hgn.seed-commit");
	hg_record_set_tag(g, "SeedReveal", "not hex");
	check_codes(g, "hgn.seed-commit");
	hg_record_set_tag(g, "SeedReveal", SECRET);
	hg_record_set_tag(g, "Entropy3", "x");		/* no third seat */
	check_codes(g, "hgn.seed-commit");
	hg_record_free(g);

	g = two_seats();
	hg_record_set_tag(g, "SeedReveal", SECRET);	/* no commitment */
	check_codes(g, "hgn.seed-commit");
	hg_record_free(g);

	g = two_seats();
	hg_record_set_tag(g, "SeedCommit", COMMIT);
	hg_record_set_tag(g, "Seed", "x");		/* a second source of chance */
	check_codes(g, "hgn.seed-commit");
	hg_record_free(g);

	g = two_seats();
	hg_record_set_tag(g, "Entropy1", "x");		/* entropy into nothing */
	check_codes(g, "hgn.seed-commit");
	hg_record_free(g);
}
END_TEST

/* Endings (herald-notation(5), ENDINGS): the Termination words, and how a
 * record says it ended. */
START_TEST(termination_words)
{
	ck_assert_int_eq(hg_termination_kind(NULL), HG_END_NORMAL);
	ck_assert_int_eq(hg_termination_kind("normal"), HG_END_NORMAL);
	ck_assert_int_eq(hg_termination_kind("Resignation"), HG_END_RESIGNATION);
	ck_assert_int_eq(hg_termination_kind("agreement"), HG_END_AGREEMENT);
	ck_assert_int_eq(hg_termination_kind("forfeit"), HG_END_FORFEIT);
	ck_assert_int_eq(hg_termination_kind("adjudication"), HG_END_ADJUDICATION);
	ck_assert_int_eq(hg_termination_kind("abandoned"), -1);
	ck_assert_str_eq(hg_termination_word(HG_END_FORFEIT), "forfeit");
	ck_assert_ptr_null(hg_termination_word(99));
}
END_TEST

static hg_game_record *parse_one(const char *text)
{
	return unit_parse_first("t.hgn", text);
}

START_TEST(record_endings)
{
	hg_buf why;
	hg_buf_init(&why);
	hg_game_record *g = parse_one("[Game \"koc\"]\n[Date \"????.??.??\"]\n"
				      "[Players \"Ana; Ben\"]\n[Result \"P2\"]\n\n"
				      "1. P1: resign\n\"P2\"\n");
	ck_assert_int_eq(hg_record_ending(g, &why), 1);
	ck_assert_str_eq(why.data, "P1 resigned");
	ck_assert_int_eq(hg_action_is_resign(&g->moves.nodes[1].action), 1);
	hg_record_free(g);
	hg_buf_clear(&why);
	g = parse_one("[Game \"koc\"]\n[Date \"????.??.??\"]\n[Players \"Ana; Ben\"]\n"
		      "[Result \"P1\"]\n[Termination \"forfeit\"]\n[Forfeit \"P2\"]\n"
		      "[TerminationReason \"no show\"]\n\n\"P1\"\n");
	ck_assert_int_eq(hg_record_ending(g, &why), 1);
	ck_assert_str_eq(why.data, "forfeit of P2: no show");
	hg_record_set_tag(g, "Termination", "normal");
	hg_buf_clear(&why);
	ck_assert_int_eq(hg_record_ending(g, &why), 0);
	hg_record_free(g);
	hg_buf_free(&why);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("fair");
	TCase *tc = tcase_create("fair");
	tcase_add_test(tc, commit_known_answer);
	tcase_add_test(tc, effective_seed_known_answers);
	tcase_add_test(tc, contribution_matters);
	tcase_add_test(tc, secret_is_random_and_committable);
	tcase_add_test(tc, check_commitment);
	tcase_add_test(tc, termination_words);
	tcase_add_test(tc, record_endings);
	suite_add_tcase(s, tc);
	return s;
}

/* test-select.c - the pieces of `herald select` (src/cli/select-*.c): the
 * user's regular expressions (folded, anchored, bounded), the criteria's
 * parsing, the --position language, and the set of hashes --unique keeps. */
#include "unit.h"

#include <string.h>

#include "cli/select.h"	/* by its directory: src/cli has a check.h of its own */

static select_regex *compile(const char *re)
{
	hg_buf err;
	hg_buf_init(&err);
	select_regex *r = select_regex_new(re, &err);
	ck_assert_msg(r != NULL, "%s", err.data ? err.data : "");
	hg_buf_free(&err);
	return r;
}

START_TEST(regex_folds_and_anchors)
{
	select_scratch *sc = select_scratch_new();
	select_regex *r = compile("lider");
	ck_assert_int_eq(select_regex_match(r, "Líder", sc), 1);
	ck_assert_int_eq(select_regex_match(r, "LIDER", sc), 1);
	ck_assert_int_eq(select_regex_match(r, "El Líder", sc), 0);
	select_regex_free(r);
	r = compile("LÍD\\w+");	/* folded where not ASCII; \w kept */
	ck_assert_int_eq(select_regex_match(r, "lider", sc), 1);
	select_regex_free(r);
	r = compile("\\D+");	/* not folded into \d */
	ck_assert_int_eq(select_regex_match(r, "Ana", sc), 1);
	ck_assert_int_eq(select_regex_match(r, "12", sc), 0);
	select_regex_free(r);
	select_scratch_free(sc);
}
END_TEST

START_TEST(regex_errors_and_limits)
{
	hg_buf err;
	hg_buf_init(&err);
	ck_assert_ptr_null(select_regex_new("a(b", &err));
	ck_assert_ptr_nonnull(strstr(err.data, "missing closing parenthesis at offset 3"));
	hg_buf_free(&err);
	select_scratch *sc = select_scratch_new();
	select_regex *r = compile("(a|aa)+");
	char subject[64];
	memset(subject, 'a', 50);
	strcpy(subject + 50, "!");
	ck_assert_int_eq(select_regex_match(r, subject, sc), -1);
	select_regex_free(r);
	select_scratch_free(sc);
}
END_TEST

START_TEST(criteria_parse)
{
	select_tag_crit c;
	hg_buf err;
	hg_buf_init(&err);
	ck_assert_int_eq(select_criterion_parse(&c, "date-from", "2026.11", &err), 0);
	ck_assert_str_eq(c.date, "2026.11.00");
	ck_assert_int_eq(select_criterion_parse(&c, "date-to", "2026", &err), 0);
	ck_assert_str_eq(c.date, "2026.99.99");
	ck_assert_int_eq(select_criterion_parse(&c, "date-to", "2026-11", &err), -1);
	ck_assert_int_eq(select_criterion_parse(&c, "tag", "=x", &err), -1);
	ck_assert_int_eq(select_criterion_parse(&c, "game", "no-such-game", &err), -1);
	ck_assert_int_eq(select_criterion_parse(&c, "colour", "red", &err), -1);
	ck_assert_int_eq(select_criterion_parse(&c, "tag", "Event=open.*", &err), 0);
	ck_assert_str_eq(c.name, "Event");
	free(c.name);
	select_regex_free(c.re);
	hg_buf_free(&err);
}
END_TEST

START_TEST(position_parse)
{
	select_position p;
	hg_buf err;
	hg_buf_init(&err);
	ck_assert_int_eq(select_position_parse(&p, "owner homs = cruzada", &err), 0);
	ck_assert_str_eq(p.arg, "homs");
	ck_assert_int_eq(p.op, SELECT_EQ);
	ck_assert_int_eq(p.numeric, 0);
	select_position_free(&p);
	ck_assert_int_eq(select_position_parse(&p, "markers >= -2", &err), 0);
	ck_assert_str_eq(p.arg, "");
	ck_assert_int_eq(p.numeric, 1);
	ck_assert_int_eq(p.number, -2);
	select_position_free(&p);
	ck_assert_int_eq(select_position_parse(&p, "bonus cruzada < many", &err), -1);
	ck_assert_int_eq(select_position_parse(&p, "nothing x = 1", &err), -1);
	ck_assert_int_eq(select_position_parse(&p, "owner homs ~ x", &err), -1);
	ck_assert_int_eq(select_position_parse(&p, "owner", &err), -1);
	ck_assert_int_eq(select_position_parse(&p, "a b c d e", &err), -1);
	hg_buf_free(&err);
}
END_TEST

START_TEST(seen_counts_distinct)
{
	select_seen *t = select_seen_new();
	unsigned char h[SELECT_HASH_BYTES];
	/* enough to grow the table several times; the first bytes repeat
	 * (the same slot) for every 16 hashes */
	for (unsigned i = 0; i < 5000; i++) {
		memset(h, 0, sizeof h);
		memcpy(h + 8, &i, sizeof i);
		h[0] = (unsigned char)(i % 16);
		ck_assert_int_eq(select_seen_add(t, h), 1);
	}
	for (unsigned i = 0; i < 5000; i += 7) {
		memset(h, 0, sizeof h);
		memcpy(h + 8, &i, sizeof i);
		h[0] = (unsigned char)(i % 16);
		ck_assert_int_eq(select_seen_add(t, h), 0);
	}
	unsigned never = 6000;
	memset(h, 0, sizeof h);
	memcpy(h + 8, &never, sizeof never);
	h[0] = (unsigned char)(never % 16);
	ck_assert_int_eq(select_seen_add(t, h), 1);
	ck_assert_int_eq(select_seen_add(t, h), 0);
	select_seen_free(t);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("select");
	TCase *tc = tcase_create("select");
	tcase_add_test(tc, regex_folds_and_anchors);
	tcase_add_test(tc, regex_errors_and_limits);
	tcase_add_test(tc, criteria_parse);
	tcase_add_test(tc, position_parse);
	tcase_add_test(tc, seen_counts_distinct);
	suite_add_tcase(s, tc);
	return s;
}

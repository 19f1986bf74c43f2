/* test-provenance.c - the provenance of data values (provenance.c,
 * herald-data(5)): what a mapping says holds below it, per-value marks
 * override it, bad marks are diagnosed, and a diagnostic notes a
 * reconstructed datum it rests on, and only such a one. */

#include "unit.h"

#include <string.h>

#include "herald-engine.h"

static hg_ydoc *load(const char *text, hg_diags *d)
{
	return hg_yaml_load_mem("m.yaml", text, strlen(text), d);
}

static hg_prov_kind kind_of(const hg_provs *p, const char *datum)
{
	const hg_prov *e = hg_provs_find(p, NULL, datum);
	ck_assert_msg(e != NULL, "no entry for %s", datum);
	return e->kind;
}

static const char map_text[] =
	"id: m\n"
	"reconstructed: true\n"
	"source: reconstructed by herald\n"
	"areas:\n"
	"  - id: homs\n"
	"    defence: 3\n"
	"    adjacent: [latakia, hama]\n"
	"    provenance:\n"
	"      defence: {is: rule-text, source: 'rule text, 4'}\n"
	"      adjacent.latakia: rule-text\n"
	"  - id: hama\n"
	"    defence: 2\n"
	"    adjacent: [homs]\n"
	"  - id: acre\n"
	"    provenance: published\n"
	"    source: 'the publisher page'\n"
	"    defence: 2\n"
	"    extra: {points: 1, reconstructed: true}\n"
	"  - id: tyre\n"
	"    provenance: {'*': {is: rule-text, source: '7.1'}, points: reconstructed}\n"
	"    defence: 1\n"
	"    points: 2\n";

START_TEST(inherited_and_marked)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load(map_text, &d);
	ck_assert_ptr_nonnull(doc);
	hg_provs p;
	hg_provs_init(&p);
	ck_assert_int_eq(hg_provs_collect(&p, doc, &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_int_eq(kind_of(&p, "id"), HG_PROV_RECONSTRUCTED);
	ck_assert_int_eq(kind_of(&p, "areas.homs.defence"), HG_PROV_RULE_TEXT);
	ck_assert_str_eq(hg_provs_find(&p, "m.yaml", "areas.homs.defence")->source,
			 "rule text, 4");
	ck_assert_int_eq(kind_of(&p, "areas.homs.adjacent"), HG_PROV_RECONSTRUCTED);
	ck_assert_int_eq(kind_of(&p, "areas.homs.adjacent.latakia"), HG_PROV_RULE_TEXT);
	ck_assert_ptr_null(hg_provs_find(&p, NULL, "areas.homs.adjacent.latakia")->source);
	ck_assert_int_eq(kind_of(&p, "areas.homs.adjacent.hama"), HG_PROV_RECONSTRUCTED);
	ck_assert_int_eq(kind_of(&p, "areas.hama.defence"), HG_PROV_RECONSTRUCTED);
	ck_assert_int_eq(kind_of(&p, "areas.acre.defence"), HG_PROV_PUBLISHED);
	ck_assert_str_eq(hg_provs_find(&p, NULL, "areas.acre.defence")->source,
			 "the publisher page");
	ck_assert_int_eq(kind_of(&p, "areas.acre.extra.points"), HG_PROV_RECONSTRUCTED);
	ck_assert_ptr_null(hg_provs_find(&p, NULL, "areas.acre.provenance"));
	ck_assert_int_eq(kind_of(&p, "areas.tyre.defence"), HG_PROV_RULE_TEXT);
	ck_assert_str_eq(hg_provs_find(&p, NULL, "areas.tyre.defence")->source, "7.1");
	ck_assert_int_eq(kind_of(&p, "areas.tyre.points"), HG_PROV_RECONSTRUCTED);
	ck_assert_ptr_null(hg_provs_find(&p, "other.yaml", "areas.acre.defence"));
	size_t counts[HG_PROV_KINDS] = { 0 };
	hg_provs_count(&p, counts);
	/* scalars: id; homs id, defence, 2 borders; hama id, defence, 1
	 * border; acre id, defence, points */
	ck_assert_uint_eq(counts[HG_PROV_RULE_TEXT], 4);	/* + tyre's id, defence */
	ck_assert_uint_eq(counts[HG_PROV_PUBLISHED], 2);
	ck_assert_uint_eq(counts[HG_PROV_RECONSTRUCTED], 8);
	ck_assert_uint_eq(counts[HG_PROV_UNSTATED], 0);
	hg_provs_free(&p);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

START_TEST(unmarked_is_unstated)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load("cards: [{id: a, n: 1}]\n", &d);
	hg_provs p;
	hg_provs_init(&p);
	ck_assert_int_eq(hg_provs_collect(&p, doc, &d), 0);
	ck_assert_int_eq(kind_of(&p, "cards.a.n"), HG_PROV_UNSTATED);
	hg_provs_free(&p);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

/* One bad mark, one diagnostic with the code. */
static void bad(const char *text, const char *code)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load(text, &d);
	ck_assert_ptr_nonnull(doc);
	hg_provs p;
	hg_provs_init(&p);
	ck_assert_int_eq(hg_provs_collect(&p, doc, &d), -1);
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_str_eq(d.v[0].code, code);
	hg_provs_free(&p);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}

START_TEST(bad_marks)
{
	bad("provenance: invented\nx: 1\n", "data.range");
	bad("provenance: {y: published}\nx: 1\n", "data.reference");
	bad("provenance: {x.b: published}\nx: [a]\n", "data.reference");
	bad("provenance: {x: {source: s}}\nx: 1\n", "data.missing-key");
	bad("reconstructed: true\nprovenance: published\nx: 1\n", "data.range");
	bad("source: [a]\nx: 1\n", "data.type");
	bad("reconstructed: maybe\nx: 1\n", "data.type");
}
END_TEST

/* The keys pass the game loaders' key checks in a data document. */
START_TEST(keys_pass_checks)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load("x: 1\nprovenance: published\nsource: s\nreconstructed: false\n", &d);
	static const char *const keys[] = { "x", NULL };
	ck_assert_int_eq(hg_ycheck_keys(doc->root, keys, "a thing", &d), 0);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

START_TEST(rests_on_reconstructed_only)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load(map_text, &d);
	hg_provs p;
	hg_provs_init(&p);
	hg_provs_collect(&p, doc, &d);
	hg_pos at = { "r.hgn", 3, 1 };
	hg_diag *dg = hg_diag_add(&d, HG_ERROR, at, "x.y", "bad");
	hg_diag_rests_on(dg, &p, NULL, "areas.homs.adjacent.latakia");	/* rule text */
	hg_diag_rests_on(dg, &p, NULL, "areas.acre.defence");	/* published */
	hg_diag_rests_on(dg, &p, NULL, "areas.nowhere");
	ck_assert_uint_eq(dg->nrests_on, 0);
	ck_assert_uint_eq(dg->nnotes, 0);
	hg_diag_rests_on(dg, &p, NULL, "areas.hama.defence");
	hg_diag_rests_on(dg, &p, "m.yaml", "areas.hama.defence");	/* once */
	ck_assert_uint_eq(dg->nrests_on, 1);
	ck_assert_str_eq(dg->rests_on[0].datum, "areas.hama.defence");
	ck_assert_str_eq(dg->rests_on[0].file, "m.yaml");
	ck_assert_uint_eq(dg->rests_on[0].line, 12);
	ck_assert_uint_eq(dg->nnotes, 1);
	ck_assert_ptr_nonnull(strstr(dg->notes[0], "areas.hama.defence (m.yaml:12;"));
	hg_diag *copy = hg_diag_add(&d, HG_ERROR, at, "x.y", "bad");
	hg_diag_copy_rests_on(copy, &d.v[0]);
	ck_assert_uint_eq(copy->nrests_on, 1);
	hg_provs_free(&p);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

/* A mark per item of a long list: each lookup is a search of the sorted
 * marks, not a scan (a hostile file must not make the load quadratic). */
START_TEST(many_marks_stay_linear)
{
	enum { N = 50000 };
	hg_buf text;
	hg_buf_init(&text);
	hg_buf_puts(&text, "x:\n");
	for (int i = 0; i < N; i++)
		hg_buf_printf(&text, "- a%d\n", i);
	hg_buf_puts(&text, "provenance:\n");
	for (int i = 0; i < N; i++)
		hg_buf_printf(&text, "  x.a%d: published\n", i);
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = hg_yaml_load_mem("big.yaml", text.data, text.len, &d);
	ck_assert_ptr_nonnull(doc);
	hg_provs p;
	hg_provs_init(&p);
	ck_assert_int_eq(hg_provs_collect(&p, doc, &d), 0);
	size_t counts[HG_PROV_KINDS] = { 0 };
	hg_provs_count(&p, counts);
	ck_assert_uint_eq(counts[HG_PROV_PUBLISHED], N);
	ck_assert_int_eq(kind_of(&p, "x.a49999"), HG_PROV_PUBLISHED);
	hg_provs_free(&p);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
	hg_buf_free(&text);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("provenance");
	TCase *tc = tcase_create("provenance");
	tcase_add_test(tc, inherited_and_marked);
	tcase_add_test(tc, unmarked_is_unstated);
	tcase_add_test(tc, bad_marks);
	tcase_add_test(tc, keys_pass_checks);
	tcase_add_test(tc, rests_on_reconstructed_only);
	tcase_add_test(tc, many_marks_stay_linear);
	suite_add_tcase(s, tc);
	return s;
}

/* test-yaml.c - the YAML tree loader: positions, every diagnostic, the
 * limits on hostile documents, and the typed helpers' messages. */
#include "unit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "herald-engine.h"
#include "yaml-tree.h"

/* ------------------------------------------------------------------------
 * Helpers.
 * ------------------------------------------------------------------------ */
static hg_ydoc *load(const char *text, hg_diags *d)
{
	return hg_yaml_load_mem("t.yaml", text, strlen(text), d);
}

/* Diagnostic i as printed, first line only (no notes), without '\n'. */
static char *diag_text(const hg_diags *d, size_t i)
{
	static char line[2048];
	ck_assert_uint_lt(i, d->n);
	hg_diag copy = d->v[i];
	copy.nnotes = 0;
	hg_buf b;
	hg_buf_init(&b);
	hg_diag_format(&copy, &b, 0);
	ck_assert_uint_gt(b.len, 0);
	b.data[b.len - 1] = '\0';
	snprintf(line, sizeof line, "%s", b.data);
	hg_buf_free(&b);
	return line;
}

/* Loading `text` fails with exactly one diagnostic, printed as `want`. */
static void load_fails(const char *text, const char *want)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load(text, &d);
	ck_assert_ptr_null(doc);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_str_eq(diag_text(&d, 0), want);
	hg_diags_free(&d);
}

static const hg_ynode *get(const hg_ynode *map, const char *key)
{
	const hg_ynode *n = hg_ymap_get(map, key);
	ck_assert_msg(n != NULL, "no key '%s'", key);
	return n;
}

/* ------------------------------------------------------------------------
 * The tree and its positions.
 * ------------------------------------------------------------------------ */
START_TEST(tree_shape_and_positions)
{
	/* Columns count characters: é, ñ and 🏰 are 2, 2 and 4 bytes. */
	const char *text =
		"é: ñññ x\n"
		"ab: \"é\"\n"
		"list:\n"
		"  - 1\n"
		"  - {k: 🏰, z: 'q'}\n"
		"🏰🏰: [a, [b]]\n"
		"empty:\n";
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load(text, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_str_eq(doc->file, "t.yaml");
	const hg_ynode *root = doc->root;
	ck_assert_int_eq(root->kind, HG_Y_MAP);
	ck_assert_uint_eq(hg_ymap_len(root), 5);
	ck_assert_uint_eq(root->pos.line, 1);
	ck_assert_uint_eq(root->pos.col, 1);
	ck_assert_str_eq(root->pos.file, "t.yaml");

	ck_assert_str_eq(hg_ymap_key(root, 0)->scalar, "é");
	const hg_ynode *v = hg_ymap_value(root, 0);
	ck_assert_str_eq(v->scalar, "ñññ x");
	ck_assert_int_eq(v->plain, 1);
	ck_assert_uint_eq(v->pos.line, 1);
	ck_assert_uint_eq(v->pos.col, 4);

	v = get(root, "ab");
	ck_assert_str_eq(v->scalar, "é");
	ck_assert_int_eq(v->plain, 0);
	ck_assert_uint_eq(v->pos.line, 2);
	ck_assert_uint_eq(v->pos.col, 5);	/* the opening quote */

	const hg_ynode *list = get(root, "list");
	ck_assert_int_eq(list->kind, HG_Y_SEQ);
	ck_assert_uint_eq(list->n, 2);
	ck_assert_str_eq(list->items[0]->scalar, "1");
	ck_assert_uint_eq(list->items[0]->pos.line, 4);
	ck_assert_uint_eq(list->items[0]->pos.col, 5);
	const hg_ynode *flow = list->items[1];
	ck_assert_int_eq(flow->kind, HG_Y_MAP);
	ck_assert_uint_eq(flow->pos.line, 5);
	ck_assert_uint_eq(flow->pos.col, 5);
	ck_assert_uint_eq(get(flow, "z")->pos.col, 15);
	ck_assert_str_eq(get(flow, "z")->scalar, "q");
	ck_assert_uint_eq(get(flow, "k")->pos.col, 9);

	const hg_ynode *castle = get(root, "🏰🏰");
	ck_assert_uint_eq(hg_ymap_key(root, 3)->pos.col, 1);
	ck_assert_uint_eq(castle->pos.line, 6);
	ck_assert_uint_eq(castle->pos.col, 5);
	ck_assert_uint_eq(castle->items[1]->kind, HG_Y_SEQ);
	ck_assert_uint_eq(castle->items[1]->pos.col, 9);
	ck_assert_str_eq(castle->items[1]->items[0]->scalar, "b");

	v = get(root, "empty");
	ck_assert_int_eq(v->kind, HG_Y_SCALAR);
	ck_assert_str_eq(v->scalar, "");
	ck_assert_int_eq(v->plain, 1);

	/* Accessors out of range or on the wrong kind. */
	ck_assert_ptr_null(hg_ymap_get(root, "nope"));
	ck_assert_ptr_null(hg_ymap_key(root, 5));
	ck_assert_ptr_null(hg_ymap_value(root, 99));
	ck_assert_uint_eq(hg_ymap_len(list), 0);
	ck_assert_ptr_null(hg_ymap_get(list, "1"));
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

START_TEST(empty_document_and_bom)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load("", &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_ptr_null(doc->root);
	hg_ydoc_free(doc);
	doc = load("# only a comment\n", &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_ptr_null(doc->root);
	hg_ydoc_free(doc);
	/* A byte order mark takes no column. */
	doc = load("\xEF\xBB\xBFk: v\n", &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(get(doc->root, "k")->pos.col, 4);
	hg_ydoc_free(doc);
	ck_assert_uint_eq(d.n, 0);
	hg_diags_free(&d);
}
END_TEST

START_TEST(tags_of_the_core_schema)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = load("a: !!str 12\nb: ! 13\nc: !!int \"14\"\nd: !!map {x: 1}\n"
			    "e: !!seq [1]\nf: !!bool TRUE\ng: !!null ~\nh: !!float 1.5e3\n", &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(d.n, 0);
	/* !!str and ! make a string of what would be an integer... */
	ck_assert_int_eq(get(doc->root, "a")->plain, 0);
	ck_assert_int_eq(get(doc->root, "b")->plain, 0);
	long v;
	ck_assert_int_eq(hg_yint(get(doc->root, "a"), 0, 100, &v, &d), -1);
	/* ... and !!int an integer of what is quoted. */
	ck_assert_int_eq(get(doc->root, "c")->plain, 1);
	ck_assert_int_eq(hg_yint(get(doc->root, "c"), 0, 100, &v, &d), 0);
	ck_assert_int_eq(v, 14);
	int b;
	ck_assert_int_eq(hg_ybool(get(doc->root, "f"), &b, &d), 0);
	ck_assert_int_eq(b, 1);
	hg_ydoc_free(doc);
	hg_diags_free(&d);

	load_fails("a: !foo x\n", "t.yaml:1:4: error: tag '!foo' is not supported [data.type]");
	load_fails("a: !!binary aGk=\n",
		   "t.yaml:1:4: error: tag '!!binary' is not supported [data.type]");
	load_fails("%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n",
		   "t.yaml:3:4: error: tag 'tag:example.com,2000:x' is not supported [data.type]");
	load_fails("a: !!int x1\n", "t.yaml:1:4: error: 'x1' is not a valid '!!int' value [data.type]");
	load_fails("a: !!bool yes\n",
		   "t.yaml:1:4: error: 'yes' is not a valid '!!bool' value [data.type]");
	load_fails("a: !!map [1]\n", "t.yaml:1:4: error: tag '!!map' does not fit a list [data.type]");
	load_fails("- !!seq {a: 1}\n",
		   "t.yaml:1:3: error: tag '!!seq' does not fit a mapping [data.type]");
}
END_TEST

/* ------------------------------------------------------------------------
 * Diagnostics of the loader.
 * ------------------------------------------------------------------------ */
START_TEST(syntax_errors)
{
	load_fails("a: b\n  c: d: e\n",
		   "t.yaml:2:4: error: mapping values are not allowed in this context [data.syntax]");
	/* libyaml's context becomes a note. */
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(load("k: [a, b\nz: 1\n", &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "data.syntax");
	ck_assert_uint_eq(d.v[0].nnotes, 1);
	ck_assert_str_eq(d.v[0].notes[0], "while parsing a flow sequence that starts at line 1, column 4");
	hg_diags_free(&d);
	/* Invalid UTF-8: libyaml gives a byte offset; we give line:col,
	 * counting characters (é before the bad byte). */
	load_fails("a: b\néx: \xff\n",
		   "t.yaml:2:5: error: invalid leading UTF-8 octet (byte 0xff) [data.syntax]");
	load_fails("a: \"x\\0y\"\n",
		   "t.yaml:1:4: error: a NUL character in a scalar is not supported [data.syntax]");
	load_fails("a: 1\n---\nb: 2\n",
		   "t.yaml:2:1: error: a second YAML document in one file [data.syntax]");
	load_fails("a: 1\n...\n---\n",
		   "t.yaml:3:1: error: a second YAML document in one file [data.syntax]");
}
END_TEST

START_TEST(anchors_and_aliases)
{
	load_fails("a: &x 1\nb: 2\n", "t.yaml:1:4: error: anchor '&x' is not supported [data.alias]");
	load_fails("a: [1, *x]\n", "t.yaml:1:8: error: alias '*x' is not supported [data.alias]");
	load_fails("- &list [1]\n", "t.yaml:1:3: error: anchor '&list' is not supported [data.alias]");
	load_fails("&m {a: 1}\n", "t.yaml:1:1: error: anchor '&m' is not supported [data.alias]");
}
END_TEST

/* "Billion laughs": nine levels of ten aliases each; expanded, 10^9
 * strings.  Refused at the first anchor, at once. */
START_TEST(billion_laughs)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
	for (char c = 'b'; c <= 'i'; c++) {
		hg_buf_printf(&b, "%c: &%c [", c, c);
		for (int i = 0; i < 9; i++)
			hg_buf_printf(&b, "%s*%c", i ? "," : "", c - 1);
		hg_buf_puts(&b, "]\n");
	}
	hg_diags d;
	hg_diags_init(&d);
	clock_t start = clock();
	hg_ydoc *doc = hg_yaml_load_mem("bomb.yaml", b.data, b.len, &d);
	double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
	ck_assert_ptr_null(doc);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "data.alias");
	ck_assert_uint_eq(d.v[0].line, 1);
	ck_assert_uint_eq(d.v[0].col, 4);
	ck_assert_msg(seconds < 1.0, "took %.2f s", seconds);
	hg_diags_free(&d);
	hg_buf_free(&b);
}
END_TEST

START_TEST(duplicate_keys)
{
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(load("b: 1\na: 2\nc: 3\na: 4\nb: 5\na: 6\n", &d));
	ck_assert_uint_eq(d.n, 3);
	/* In document order, each pointing to the first. */
	ck_assert_str_eq(diag_text(&d, 0),
			 "t.yaml:4:1: error: duplicate key 'a' in this mapping [data.duplicate-key]");
	ck_assert_str_eq(d.v[0].notes[0], "'a' was first given at line 2, column 1");
	ck_assert_str_eq(diag_text(&d, 1),
			 "t.yaml:5:1: error: duplicate key 'b' in this mapping [data.duplicate-key]");
	ck_assert_str_eq(d.v[1].notes[0], "'b' was first given at line 1, column 1");
	ck_assert_str_eq(diag_text(&d, 2),
			 "t.yaml:6:1: error: duplicate key 'a' in this mapping [data.duplicate-key]");
	hg_diags_free(&d);
	/* Nested and flow mappings too; the same key in two mappings is fine. */
	load_fails("x: {k: 1, k: 2}\n",
		   "t.yaml:1:11: error: duplicate key 'k' in this mapping [data.duplicate-key]");
	hg_ydoc *doc = load("- {k: 1}\n- {k: 2}\n", &d);
	ck_assert_ptr_nonnull(doc);
	hg_ydoc_free(doc);
	/* Keys compare by their text: "1" and 1 are the same key. */
	load_fails("1: a\n\"1\": b\n",
		   "t.yaml:2:1: error: duplicate key '1' in this mapping [data.duplicate-key]");
	ck_assert_uint_eq(d.n, 0);
	hg_diags_free(&d);
}
END_TEST

START_TEST(duplicate_keys_in_a_large_mapping)
{
	/* Sorted, not compared pairwise: 100 000 keys load quickly. */
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < 100000; i++)
		hg_buf_printf(&b, "k%d: %d\n", i, i);
	hg_buf_puts(&b, "k77777: again\n");
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(hg_yaml_load_mem("big.yaml", b.data, b.len, &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(diag_text(&d, 0),
			 "big.yaml:100001:1: error: duplicate key 'k77777' in this mapping [data.duplicate-key]");
	ck_assert_str_eq(d.v[0].notes[0], "'k77777' was first given at line 77778, column 1");
	hg_diags_free(&d);
	hg_buf_free(&b);
}
END_TEST

/* 200 000 copies of one key: the first 100 repeats are reported, then
 * the loader stops; quickly (no pairwise comparison). */
START_TEST(error_limit)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < 200000; i++)
		hg_buf_puts(&b, "a: 1\n");
	hg_diags d;
	hg_diags_init(&d);
	clock_t start = clock();
	ck_assert_ptr_null(hg_yaml_load_mem("dup.yaml", b.data, b.len, &d));
	double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
	ck_assert_msg(seconds < 10.0, "took %.2f s", seconds);
	ck_assert_uint_eq(d.n, 101);
	for (size_t i = 0; i < 100; i++) {
		ck_assert_str_eq(d.v[i].code, "data.duplicate-key");
		ck_assert_uint_eq(d.v[i].line, i + 2);
	}
	ck_assert_str_eq(d.v[100].code, "data.limit");
	ck_assert_str_eq(d.v[100].message, "100 errors: the rest of the file is not checked");
	hg_diags_clear(&d);
	/* Errors met while parsing stop the parse at the limit too. */
	hg_buf_clear(&b);
	for (int i = 0; i < 150; i++)
		hg_buf_printf(&b, "- !bad%d x\n", i);
	ck_assert_ptr_null(hg_yaml_load_mem("tags.yaml", b.data, b.len, &d));
	ck_assert_uint_eq(d.n, 101);
	ck_assert_str_eq(diag_text(&d, 99),
			 "tags.yaml:100:3: error: tag '!bad99' is not supported [data.type]");
	ck_assert_str_eq(d.v[100].code, "data.limit");
	/* Under the limit: no summary. */
	hg_diags_clear(&d);
	hg_buf_clear(&b);
	hg_buf_puts(&b, "k: 1\n");
	for (int i = 0; i < 99; i++)
		hg_buf_puts(&b, "k: 2\n");
	ck_assert_ptr_null(hg_yaml_load_mem("k.yaml", b.data, b.len, &d));
	ck_assert_uint_eq(d.n, 99);
	ck_assert_str_eq(d.v[98].code, "data.duplicate-key");
	hg_diags_free(&d);
	hg_buf_free(&b);
}
END_TEST

START_TEST(keys_must_be_scalars)
{
	load_fails("? [a, b]\n: 1\n",
		   "t.yaml:1:3: error: a mapping key must be a scalar, found a list [data.type]");
	load_fails("{{a: 1}: 2}\n",
		   "t.yaml:1:2: error: a mapping key must be a scalar, found a mapping [data.type]");
}
END_TEST

static char *nested(int depth)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < depth; i++)
		hg_buf_putc(&b, '[');
	hg_buf_putc(&b, '1');
	for (int i = 0; i < depth; i++)
		hg_buf_putc(&b, ']');
	return hg_buf_steal(&b);
}

START_TEST(depth_limit)
{
	hg_diags d;
	hg_diags_init(&d);
	/* An HGN record as YAML with variations 64 deep needs about 133
	 * levels: that is allowed. */
	char *ok = nested(140);
	hg_ydoc *doc = load(ok, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(d.n, 0);
	hg_ydoc_free(doc);
	free(ok);
	char *deep = nested(100000);
	ck_assert_ptr_null(load(deep, &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "data.limit");
	ck_assert_uint_eq(d.v[0].line, 1);
	ck_assert_uint_gt(d.v[0].col, 140);
	ck_assert_ptr_nonnull(strstr(d.v[0].message, "lists and mappings nested more than "));
	ck_assert_ptr_nonnull(strstr(d.v[0].message, " deep"));
	free(deep);
	hg_diags_free(&d);
}
END_TEST

START_TEST(node_limit)
{
	/* A flat list of a million and one items, plus the list: over. */
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_putc(&b, '[');
	for (int i = 0; i < 1000000; i++)
		hg_buf_puts(&b, "0,");
	hg_buf_puts(&b, "0]");
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(hg_yaml_load_mem("n.yaml", b.data, b.len, &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(diag_text(&d, 0),
			 "n.yaml:1:2000000: error: the document has more than 1000000 nodes [data.limit]");
	hg_diags_free(&d);
	/* One fewer item is fine. */
	b.len -= 4;
	hg_buf_puts(&b, "]");
	hg_ydoc *doc = hg_yaml_load_mem("n.yaml", b.data, b.len, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(doc->root->n, 999999);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
	hg_buf_free(&b);
}
END_TEST

START_TEST(size_limit)
{
	size_t len = 64u * 1024 * 1024 + 1;
	char *big = malloc(len);
	ck_assert_ptr_nonnull(big);
	memset(big, ' ', len);
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_ptr_null(hg_yaml_load_mem("big.yaml", big, len, &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(diag_text(&d, 0),
			 "big.yaml: error: the file is larger than 64 MiB [data.limit]");
	hg_diags_free(&d);
	free(big);
}
END_TEST

START_TEST(load_file)
{
	char path[] = "/tmp/herald-test-yaml-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	const char *text = "deck:\n  - id: c01\n    value: 3\n";
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = hg_yaml_load_file(path, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(doc->file, path);
	const hg_ynode *card = get(doc->root, "deck")->items[0];
	ck_assert_str_eq(get(card, "id")->scalar, "c01");
	ck_assert_str_eq(get(card, "value")->pos.file, path);
	ck_assert_uint_eq(get(card, "value")->pos.line, 3);
	ck_assert_uint_eq(get(card, "value")->pos.col, 12);
	hg_ydoc_free(doc);
	unlink(path);

	ck_assert_ptr_null(hg_yaml_load_file(path, &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "data.io");
	ck_assert_str_eq(d.v[0].file, path);
	ck_assert_str_eq(d.v[0].message, "cannot open the file: No such file or directory");
	hg_diags_clear(&d);
	ck_assert_ptr_null(hg_yaml_load_file("/tmp", &d));
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "data.io");
	hg_diags_free(&d);
}
END_TEST

/* ------------------------------------------------------------------------
 * Streaming the items of one list (hg_yaml_load_items).
 * ------------------------------------------------------------------------ */
typedef struct seen {
	hg_buf log;
	size_t items;
} seen;

static void log_item(void *ctx, const hg_ynode *item, hg_diags *d)
{
	seen *s = ctx;
	s->items++;
	hg_buf_printf(&s->log, "%u:%u ", item->pos.line, item->pos.col);
	long v;
	/* Diagnostics still know where the item sits. */
	if (item->kind == HG_Y_MAP)
		hg_yint(hg_ymap_get(item, "n"), 0, 9, &v, d);
	else
		hg_yint(item, 0, 9, &v, d);
}

START_TEST(streamed_items)
{
	static const char text[] =
		"before: [1, 2]\n"
		"games:\n"
		"- {n: 1}\n"
		"- n: 2\n"
		"  deep: {games: [9]}\n"
		"- 33\n"
		"after: {games: [4]}\n";
	seen s = { .items = 0 };
	hg_buf_init(&s.log);
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = hg_yaml_load_items("s.yaml", text, strlen(text), "games", log_item, &s, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(s.items, 3);
	ck_assert_str_eq(s.log.data, "3:3 4:3 6:3 ");
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(diag_text(&d, 0),
		"s.yaml:6:3: error: expected an integer from 0 to 9 for item 3 of 'games', found '33' [data.range]");
	/* The rest of the document stays; the items have gone. */
	const hg_ynode *games = get(doc->root, "games");
	ck_assert_uint_eq(games->n, 3);
	ck_assert_ptr_null(games->items[0]);
	ck_assert_uint_eq(get(doc->root, "before")->n, 2);
	ck_assert_uint_eq(get(get(doc->root, "after"), "games")->n, 1);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
	hg_buf_free(&s.log);
}
END_TEST

/* The node limit is for one item: a list of many small items of more
 * than a million nodes in all loads. */
START_TEST(streamed_items_node_limit)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "games:\n");
	for (int i = 0; i < 350000; i++)
		hg_buf_puts(&b, "- {n: 1}\n");
	seen s = { .items = 0 };
	hg_buf_init(&s.log);
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = hg_yaml_load_items("s.yaml", b.data, b.len, "games", log_item, &s, &d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(s.items, 350000);
	ck_assert_uint_eq(d.n, 0);
	hg_ydoc_free(doc);
	/* The same through hg_yaml_load_mem is over its limit. */
	ck_assert_ptr_null(hg_yaml_load_mem("s.yaml", b.data, b.len, &d));
	ck_assert_str_eq(d.v[0].code, "data.limit");
	hg_diags_free(&d);
	hg_buf_free(&s.log);
	hg_buf_free(&b);
}
END_TEST

/* ------------------------------------------------------------------------
 * The typed helpers.
 * ------------------------------------------------------------------------ */
static const char *const helpers_text =
	"sector: x\n"			/* 1 */
	"big: 7\n"			/* 2 */
	"quoted: \"3\"\n"		/* 3 */
	"huge: 99999999999999999999\n"	/* 4 */
	"signed: +3\n"			/* 5 */
	"neg: -12\n"			/* 6 */
	"hex: 0x10\n"			/* 7 */
	"sectors: [1, x, [2]]\n"	/* 8 */
	"flag: yes\n"			/* 9 */
	"flags: [true, True, TRUE, false, False, FALSE, 'true']\n"	/* 10 */
	"name: [a]\n"			/* 11 */
	"none:\n"			/* 12 */
	"tilde: ~\n"			/* 13 */
	"number: 12\n"			/* 14 */
	"side: Nórth\n"			/* 15 */
	"bad-side: up\n"		/* 16 */
	"card: {id: c01, nmae: Lider, vlaue: 3}\n"	/* 17 */
	"long: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"\n"	/* 18 */
	"nl: \"a\\nb\"\n";		/* 19 */

static hg_ydoc *helpers_doc(hg_diags *d)
{
	hg_ydoc *doc = hg_yaml_load_mem("h.yaml", helpers_text, strlen(helpers_text), d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(d->n, 0);
	return doc;
}

/* The last diagnostic, printed (first line). */
static const char *last(const hg_diags *d)
{
	return diag_text(d, d->n - 1);
}

START_TEST(integers)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = helpers_doc(&d);
	const hg_ynode *root = doc->root;
	long v = 42;
	ck_assert_int_eq(hg_yint(get(root, "sector"), 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:1:9: error: expected an integer from 1 to 4 for 'sector', found 'x' [data.type]");
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(hg_yint(get(root, "big"), 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:2:6: error: expected an integer from 1 to 4 for 'big', found '7' [data.range]");
	ck_assert_int_eq(hg_yint(get(root, "big"), 1, 7, &v, &d), 0);
	ck_assert_int_eq(v, 7);
	ck_assert_int_eq(hg_yint(get(root, "quoted"), 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:3:9: error: expected an integer from 1 to 4 for 'quoted', found the string '3' [data.type]");
	ck_assert_int_eq(hg_yint(get(root, "huge"), LONG_MIN, LONG_MAX, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:4:7: error: expected an integer for 'huge', found '99999999999999999999' [data.range]");
	ck_assert_int_eq(hg_yint(get(root, "signed"), 0, LONG_MAX, &v, &d), 0);
	ck_assert_int_eq(v, 3);
	ck_assert_int_eq(hg_yint(get(root, "neg"), 0, LONG_MAX, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:6:6: error: expected an integer of at least 0 for 'neg', found '-12' [data.range]");
	ck_assert_int_eq(hg_yint(get(root, "neg"), LONG_MIN, -13, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:6:6: error: expected an integer of at most -13 for 'neg', found '-12' [data.range]");
	ck_assert_int_eq(hg_yint(get(root, "neg"), LONG_MIN, 0, &v, &d), 0);
	ck_assert_int_eq(v, -12);
	/* Decimal only. */
	ck_assert_int_eq(hg_yint(get(root, "hex"), 0, 100, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:7:6: error: expected an integer from 0 to 100 for 'hex', found '0x10' [data.type]");
	/* Items of a list, and non-scalars. */
	const hg_ynode *sectors = get(root, "sectors");
	ck_assert_int_eq(hg_yint(sectors->items[0], 1, 4, &v, &d), 0);
	ck_assert_int_eq(hg_yint(sectors->items[1], 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:8:14: error: expected an integer from 1 to 4 for item 2 of 'sectors', found 'x' [data.type]");
	ck_assert_int_eq(hg_yint(sectors->items[2], 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:8:17: error: expected an integer from 1 to 4 for item 3 of 'sectors', found a list [data.type]");
	ck_assert_int_eq(hg_yint(sectors->items[2]->items[0], 1, 1, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:8:18: error: expected an integer from 1 to 1 for item 1 of item 3 of 'sectors', found '2' [data.range]");
	ck_assert_int_eq(hg_yint(get(root, "none"), 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:12:6: error: expected an integer from 1 to 4 for 'none', found nothing [data.type]");
	ck_assert_int_eq(hg_yint(root, 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:1:1: error: expected an integer from 1 to 4 for the document, found a mapping [data.type]");
	/* A key itself. */
	ck_assert_int_eq(hg_yint(hg_ymap_key(root, 0), 1, 4, &v, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:1:1: error: expected an integer from 1 to 4 for the key 'sector', found 'sector' [data.type]");
	ck_assert_uint_eq(d.n, d.nerrors);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

START_TEST(booleans_strings_words)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = helpers_doc(&d);
	const hg_ynode *root = doc->root;
	int b = -1;
	ck_assert_int_eq(hg_ybool(get(root, "flag"), &b, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:9:7: error: expected true or false for 'flag', found 'yes' [data.type]");
	ck_assert_int_eq(b, -1);
	const hg_ynode *flags = get(root, "flags");
	for (size_t i = 0; i < 6; i++) {
		ck_assert_int_eq(hg_ybool(flags->items[i], &b, &d), 0);
		ck_assert_int_eq(b, i < 3);
	}
	ck_assert_int_eq(hg_ybool(flags->items[6], &b, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:10:48: error: expected true or false for item 7 of 'flags', found the string 'true' [data.type]");

	const char *s = NULL;
	ck_assert_int_eq(hg_ystr(get(root, "number"), &s, &d), 0);
	ck_assert_str_eq(s, "12");
	ck_assert_int_eq(hg_ystr(flags->items[6], &s, &d), 0);
	ck_assert_str_eq(s, "true");
	ck_assert_int_eq(hg_ystr(get(root, "name"), &s, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:11:7: error: expected a string for 'name', found a list [data.type]");
	ck_assert_int_eq(hg_ystr(get(root, "none"), &s, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:12:6: error: expected a string for 'none', found nothing [data.type]");
	ck_assert_int_eq(hg_ystr(get(root, "tilde"), &s, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:13:8: error: expected a string for 'tilde', found '~' [data.type]");
	/* Long and multi-line values are quoted short and escaped. */
	ck_assert_int_eq(hg_ybool(get(root, "long"), &b, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:18:7: error: expected true or false for 'long', found the string "
		"'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' [data.type]");
	ck_assert_int_eq(hg_ybool(get(root, "nl"), &b, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:19:5: error: expected true or false for 'nl', found the string 'a\\nb' [data.type]");

	static const char *const sides[] = { "north", "south", "east", NULL };
	int w = -1;
	ck_assert_int_eq(hg_yword(get(root, "side"), sides, &w, &d), 0);
	ck_assert_int_eq(w, 0);
	ck_assert_int_eq(hg_yword(get(root, "bad-side"), sides, &w, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:16:11: error: expected one of 'north', 'south' or 'east' for 'bad-side', found 'up' [data.range]");
	ck_assert_int_eq(hg_yword(get(root, "name"), sides, &w, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:11:7: error: expected one of 'north', 'south' or 'east' for 'name', found a list [data.type]");
	static const char *const one[] = { "only", NULL };
	ck_assert_int_eq(hg_yword(get(root, "bad-side"), one, &w, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:16:11: error: expected 'only' for 'bad-side', found 'up' [data.range]");
	ck_assert_uint_eq(d.n, d.nerrors);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

START_TEST(kinds_and_keys)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *doc = helpers_doc(&d);
	const hg_ynode *root = doc->root;
	ck_assert_int_eq(hg_ycheck_kind(root, HG_Y_MAP, "the deck", &d), 0);
	ck_assert_int_eq(hg_ycheck_kind(root, HG_Y_SEQ, "the deck", &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:1:1: error: expected a list for the deck, found a mapping [data.type]");
	ck_assert_int_eq(hg_ycheck_kind(get(root, "sectors"), HG_Y_MAP, NULL, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:8:10: error: expected a mapping for 'sectors', found a list [data.type]");
	ck_assert_int_eq(hg_ycheck_kind(get(root, "big"), HG_Y_SEQ, NULL, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:2:6: error: expected a list for 'big', found '7' [data.type]");
	ck_assert_int_eq(hg_ycheck_kind(get(root, "name"), HG_Y_SCALAR, NULL, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:11:7: error: expected a scalar for 'name', found a list [data.type]");
	hg_diags_clear(&d);

	static const char *const keys[] = { "!id", "name", "value", "aliases", NULL };
	const hg_ynode *card = get(root, "card");
	ck_assert_int_eq(hg_ycheck_keys(card, keys, NULL, &d), -1);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_str_eq(diag_text(&d, 0),
		"h.yaml:17:17: error: unknown key 'nmae' in 'card' [data.unknown-key]");
	ck_assert_uint_eq(d.v[0].nnotes, 2);
	ck_assert_str_eq(d.v[0].notes[0], "did you mean 'name'?");
	ck_assert_str_eq(d.v[0].notes[1],
		"the keys allowed here are: id (required), name, value, aliases");
	ck_assert_str_eq(diag_text(&d, 1),
		"h.yaml:17:30: error: unknown key 'vlaue' in 'card' [data.unknown-key]");
	ck_assert_str_eq(d.v[1].notes[0], "did you mean 'value'?");
	hg_diags_clear(&d);

	static const char *const required[] = { "!id", "!cost", "!side", "name", NULL };
	ck_assert_int_eq(hg_ycheck_keys(card, required, "the card 'c01'", &d), -1);
	ck_assert_uint_eq(d.n, 4);
	ck_assert_str_eq(diag_text(&d, 0),
		"h.yaml:17:17: error: unknown key 'nmae' in the card 'c01' [data.unknown-key]");
	ck_assert_str_eq(diag_text(&d, 2),
		"h.yaml:17:7: error: missing key 'cost' in the card 'c01' [data.missing-key]");
	ck_assert_str_eq(diag_text(&d, 3),
		"h.yaml:17:7: error: missing key 'side' in the card 'c01' [data.missing-key]");
	hg_diags_clear(&d);

	static const char *const all[] = { "!id", "nmae", "vlaue", NULL };
	ck_assert_int_eq(hg_ycheck_keys(card, all, NULL, &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_int_eq(hg_ycheck_keys(get(root, "sectors"), all, NULL, &d), -1);
	ck_assert_str_eq(last(&d),
		"h.yaml:8:10: error: expected a mapping for 'sectors', found a list [data.type]");
	/* A missing node (an optional key absent) is reported, not a crash. */
	ck_assert_int_eq(hg_ycheck_kind(NULL, HG_Y_MAP, NULL, &d), -1);
	long v;
	ck_assert_int_eq(hg_yint(hg_ymap_get(root, "absent"), 0, 1, &v, &d), -1);
	hg_ydoc_free(doc);
	hg_diags_free(&d);
}
END_TEST

/* ------------------------------------------------------------------------
 * A document loaded whole (its nodes in an arena) and the same streamed
 * (each item malloc'd and freed in turn) are the same tree.
 * ------------------------------------------------------------------------ */

/* a and b are the same tree: kinds, positions, texts, lists. */
static void same_tree(const hg_ynode *a, const hg_ynode *b)
{
	ck_assert_int_eq(a->kind, b->kind);
	ck_assert_uint_eq(a->pos.line, b->pos.line);
	ck_assert_uint_eq(a->pos.col, b->pos.col);
	ck_assert_uint_eq(a->n, b->n);
	if (a->kind == HG_Y_SCALAR) {
		ck_assert_str_eq(a->scalar, b->scalar);
		ck_assert_int_eq(a->plain, b->plain);
	}
	for (size_t i = 0; i < a->n; i++)
		same_tree(a->items[i], b->items[i]);
}

typedef struct whole_and_streamed {
	const hg_ynode *games;	/* the whole document's list */
	size_t seen;
} whole_and_streamed;

static void same_as_whole(void *ctx, const hg_ynode *item, hg_diags *d)
{
	(void)d;
	whole_and_streamed *w = ctx;
	ck_assert_uint_lt(w->seen, w->games->n);
	same_tree(w->games->items[w->seen++], item);
}

START_TEST(whole_and_streamed_documents_agree)
{
	/* lists long enough to grow many times, scalars longer than an arena
	 * chunk's share, quoted and plain, nested mappings */
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "name: test\ngames:\n");
	for (int g = 0; g < 300; g++) {
		hg_buf_printf(&b, "  - id: g%d\n    moves: [", g);
		for (int m = 0; m < g % 70; m++)
			hg_buf_printf(&b, "%s'm%d'", m ? ", " : "", m);
		hg_buf_puts(&b, "]\n    note: ");
		for (int k = 0; k < (g % 50 == 7 ? 12000 : g % 9); k++)
			hg_buf_puts(&b, "x");
		hg_buf_printf(&b, "\n    deep: {a: {b: [%d, {c: \"%d\"}]}}\n", g, g);
	}
	hg_buf_puts(&b, "tail: [1, 2, 3]\n");
	hg_diags d;
	hg_diags_init(&d);
	hg_ydoc *whole = hg_yaml_load_mem("w.yaml", b.data, b.len, &d);
	ck_assert_ptr_nonnull(whole);
	ck_assert_uint_eq(d.n, 0);
	whole_and_streamed w = { hg_ymap_get(whole->root, "games"), 0 };
	ck_assert_ptr_nonnull(w.games);
	ck_assert_uint_eq(w.games->n, 300);
	hg_ydoc *streamed = hg_yaml_load_items("w.yaml", b.data, b.len, "games", same_as_whole,
					       &w, &d);
	ck_assert_ptr_nonnull(streamed);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_eq(w.seen, 300);
	same_tree(hg_ymap_get(whole->root, "tail"), hg_ymap_get(streamed->root, "tail"));
	hg_ydoc_free(streamed);
	hg_ydoc_free(whole);
	hg_diags_free(&d);
	hg_buf_free(&b);
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("yaml");
	TCase *tc = tcase_create("tree");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, tree_shape_and_positions);
	tcase_add_test(tc, empty_document_and_bom);
	tcase_add_test(tc, tags_of_the_core_schema);
	tcase_add_test(tc, syntax_errors);
	tcase_add_test(tc, anchors_and_aliases);
	tcase_add_test(tc, billion_laughs);
	tcase_add_test(tc, duplicate_keys);
	tcase_add_test(tc, duplicate_keys_in_a_large_mapping);
	tcase_add_test(tc, error_limit);
	tcase_add_test(tc, keys_must_be_scalars);
	tcase_add_test(tc, depth_limit);
	tcase_add_test(tc, node_limit);
	tcase_add_test(tc, size_limit);
	tcase_add_test(tc, load_file);
	tcase_add_test(tc, streamed_items);
	tcase_add_test(tc, streamed_items_node_limit);
	suite_add_tcase(s, tc);
	tc = tcase_create("helpers");
	tcase_add_test(tc, integers);
	tcase_add_test(tc, booleans_strings_words);
	tcase_add_test(tc, kinds_and_keys);
	tcase_add_test(tc, whole_and_streamed_documents_agree);
	suite_add_tcase(s, tc);
	return s;
}

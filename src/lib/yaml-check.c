/* yaml-check.c - the typed helpers that check the nodes of a tree loaded
 * by yaml-tree.c: reading a mapping, core schema resolution (YAML 1.2,
 * section 10.3.2) of integers, booleans and nulls, and messages that name
 * a bad value by the key it belongs to (`for 'sector'`), found through
 * each node's parent.  A plain null (nothing, `~`, `null`) is not a
 * string to hg_ystr, nor a word to hg_yword.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "yaml-tree.h"

static const ynode *priv(const hg_ynode *n)
{
	return (const ynode *)n;
}

/* Where y is in its parent's list. */
static size_t index_in(const ynode *y)
{
	size_t i = 0;
	while (y->parent->pub.items[i] != &y->pub)
		i++;
	return i;
}

/* ------------------------------------------------------------------------
 * Core schema resolution (YAML 1.2, section 10.3.2).
 * ------------------------------------------------------------------------ */
int hg_ycore_null(const char *s)
{
	return !*s || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	       strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

int hg_ycore_bool(const char *s)
{
	if (strcmp(s, "true") == 0 || strcmp(s, "True") == 0 || strcmp(s, "TRUE") == 0)
		return 1;
	if (strcmp(s, "false") == 0 || strcmp(s, "False") == 0 || strcmp(s, "FALSE") == 0)
		return 0;
	return -1;
}

static int all_of(const char *s, const char *set)
{
	return *s && strspn(s, set) == strlen(s);
}

/* [-+]? [0-9]+ */
static int is_decimal_int(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return all_of(s, "0123456789");
}

int hg_ycore_int(const char *s)
{
	if (s[0] == '0' && s[1] == 'o')
		return all_of(s + 2, "01234567");
	if (s[0] == '0' && s[1] == 'x')
		return all_of(s + 2, "0123456789abcdefABCDEF");
	return is_decimal_int(s);
}

/* [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
 * | [-+]? \. (inf|Inf|INF) | \. (nan|NaN|NAN) */
int hg_ycore_float(const char *s)
{
	if (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0 || strcmp(s, ".NAN") == 0)
		return 1;
	if (*s == '-' || *s == '+')
		s++;
	if (strcmp(s, ".inf") == 0 || strcmp(s, ".Inf") == 0 || strcmp(s, ".INF") == 0)
		return 1;
	size_t whole = strspn(s, "0123456789"), frac = 0;
	s += whole;
	if (*s == '.') {
		frac = strspn(s + 1, "0123456789");
		s += 1 + frac;
		if (whole == 0 && frac == 0)
			return 0;
	} else if (whole == 0) {
		return 0;
	}
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '-' || *s == '+')
			s++;
		size_t exp = strspn(s, "0123456789");
		if (exp == 0)
			return 0;
		s += exp;
	}
	return *s == '\0';
}

/* ------------------------------------------------------------------------
 * Describing nodes in messages.
 * ------------------------------------------------------------------------ */

/* What the node is, for "expected ... for <it>": the key it is the value
 * of, or the item of a list, or the document itself. */
static void describe(hg_buf *b, const hg_ynode *n)
{
	const ynode *y = priv(n);
	if (!y->parent) {
		hg_buf_puts(b, _("the document"));
	} else if (y->parent->pub.kind == HG_Y_MAP) {
		size_t index = index_in(y);
		const hg_ynode *key = y->parent->pub.items[index & ~(size_t)1];
		if (index % 2 == 0)
			hg_buf_puts(b, _("the key "));
		if (key->kind == HG_Y_SCALAR) {
			hg_quote(b, key->scalar);
		} else {
			hg_buf_puts(b, _("a value of "));
			describe(b, &y->parent->pub);
		}
	} else {
		hg_buf_printf(b, _("item %zu of "), index_in(y) + 1);
		describe(b, &y->parent->pub);
	}
}

/* What was found instead of what was expected. */
static void found(hg_buf *b, const hg_ynode *n)
{
	switch (n->kind) {
	case HG_Y_SEQ:
		hg_buf_puts(b, _("a list"));
		break;
	case HG_Y_MAP:
		hg_buf_puts(b, _("a mapping"));
		break;
	case HG_Y_SCALAR:
		if (n->plain && !*n->scalar) {
			hg_buf_puts(b, _("nothing"));
		} else {
			if (!n->plain)
				hg_buf_puts(b, _("the string "));
			hg_quote(b, n->scalar);
		}
		break;
	}
}

const char *hg_ykind_name(hg_ykind k)
{
	switch (k) {
	case HG_Y_SCALAR: return _("a scalar");
	case HG_Y_SEQ: return _("a list");
	case HG_Y_MAP: return _("a mapping");
	}
	return _("a node");
}

/* "expected <expected> for <node or what>, found <n>" */
static hg_diag *mismatch(hg_diags *d, const char *code, const hg_ynode *n,
			 const char *expected, const char *what)
{
	/* one message to translate, its parts described apart */
	hg_buf node, instead;
	hg_buf_init(&node);
	hg_buf_init(&instead);
	if (what)
		hg_buf_puts(&node, what);
	else
		describe(&node, n);
	found(&instead, n);
	hg_diag *dg = hg_diag_add(d, HG_ERROR, n->pos, code, "expected %s for %s, found %s",
				  expected, node.data, instead.data);
	hg_buf_free(&node);
	hg_buf_free(&instead);
	return dg;
}

static int no_node(hg_diags *d)
{
	hg_pos none = { NULL, 0, 0 };
	hg_diag_add(d, HG_ERROR, none, "data.missing-key", "expected a value, found none");
	return -1;
}

/* ------------------------------------------------------------------------
 * Access and the typed helpers.
 * ------------------------------------------------------------------------ */
size_t hg_ymap_len(const hg_ynode *map)
{
	return map && map->kind == HG_Y_MAP ? map->n / 2 : 0;
}

const hg_ynode *hg_ymap_key(const hg_ynode *map, size_t i)
{
	return i < hg_ymap_len(map) ? map->items[2 * i] : NULL;
}

const hg_ynode *hg_ymap_value(const hg_ynode *map, size_t i)
{
	return i < hg_ymap_len(map) ? map->items[2 * i + 1] : NULL;
}

const hg_ynode *hg_ymap_get(const hg_ynode *map, const char *key)
{
	size_t n = hg_ymap_len(map);
	for (size_t i = 0; i < n; i++) {
		const hg_ynode *k = map->items[2 * i];
		if (k->kind == HG_Y_SCALAR && strcmp(k->scalar, key) == 0)
			return map->items[2 * i + 1];
	}
	return NULL;
}

int hg_ycheck_kind(const hg_ynode *n, hg_ykind kind, const char *what, hg_diags *d)
{
	if (!n)
		return no_node(d);
	if (n->kind == kind)
		return 0;
	mismatch(d, "data.type", n, hg_ykind_name(kind), what);
	return -1;
}

static const char *key_name(const char *spec)
{
	return spec[0] == '!' ? spec + 1 : spec;
}

static void allowed_keys_note(hg_diag *dg, const char *const *keys)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; keys[i]; i++)
		hg_buf_printf(&b, "%s%s%s", i ? ", " : "", key_name(keys[i]),
			      keys[i][0] == '!' ? " (required)" : "");
	hg_diag_note(dg, "the keys allowed here are: %s", b.data ? b.data : "none");
	hg_buf_free(&b);
}

/* "did you mean" for a misspelt key: the closest allowed key. */
static void suggest_key_note(hg_diag *dg, const char *key, const char *const *keys)
{
	hg_names *t = hg_names_new();
	for (size_t i = 0; keys[i]; i++)
		hg_names_add(t, key_name(keys[i]), (int)i, NULL);
	int best;
	if (hg_names_suggest(t, key, &best, 1) == 1)
		hg_diag_note(dg, "did you mean '%s'?", key_name(keys[best]));
	hg_names_free(t);
}

/* Where a key error is, in words: `what`, or the map described; made
 * (into *where) at the first error only. */
static const char *keys_where(hg_buf *where, const char *what, const hg_ynode *map)
{
	if (what)
		return what;
	if (!where->data)
		describe(where, map);
	return where->data ? where->data : "";
}

int hg_ycheck_keys(const hg_ynode *map, const char *const *keys, const char *what,
		   hg_diags *d)
{
	if (hg_ycheck_kind(map, HG_Y_MAP, what, d) != 0)
		return -1;
	hg_buf where;
	hg_buf_init(&where);
	int rc = 0;
	size_t n = hg_ymap_len(map);
	for (size_t i = 0; i < n; i++) {
		const hg_ynode *k = hg_ymap_key(map, i);
		if (k->kind != HG_Y_SCALAR)
			continue;	/* refused by the loader */
		if (priv(k)->whole && hg_prov_is_key(k->scalar))
			continue;	/* any data mapping may say where it comes from */
		size_t j = 0;
		while (keys[j] && strcmp(key_name(keys[j]), k->scalar) != 0)
			j++;
		if (keys[j])
			continue;
		hg_buf q;
		hg_buf_init(&q);
		hg_quote(&q, k->scalar);
		hg_diag *dg = hg_diag_add(d, HG_ERROR, k->pos, "data.unknown-key",
					  "unknown key %s in %s", q.data,
					  keys_where(&where, what, map));
		hg_buf_free(&q);
		suggest_key_note(dg, k->scalar, keys);
		allowed_keys_note(dg, keys);
		rc = -1;
	}
	for (size_t j = 0; keys[j]; j++) {
		if (keys[j][0] != '!' || hg_ymap_get(map, keys[j] + 1))
			continue;
		hg_diag_add(d, HG_ERROR, map->pos, "data.missing-key",
			    "missing key '%s' in %s", keys[j] + 1, keys_where(&where, what, map));
		rc = -1;
	}
	hg_buf_free(&where);
	return rc;
}

int hg_ystr(const hg_ynode *n, const char **out, hg_diags *d)
{
	if (!n)
		return no_node(d);
	if (n->kind != HG_Y_SCALAR || (n->plain && hg_ycore_null(n->scalar))) {
		mismatch(d, "data.type", n, _("a string"), NULL);
		return -1;
	}
	*out = n->scalar;
	return 0;
}

int hg_yname(const hg_ynode *n, const char **out, hg_diags *d)
{
	if (hg_ystr(n, out, d) != 0)
		return -1;
	size_t len = strlen(*out);
	if (len <= HG_MAX_DATA_NAME)
		return 0;
	hg_buf q;
	hg_buf_init(&q);
	hg_quote(&q, *out);
	hg_diag *dg = hg_diag_add(d, HG_ERROR, n->pos, "data.limit",
				  "the name %s is %zu bytes long", q.data, len);
	hg_diag_note(dg, "an id, name or alias is at most %d bytes", HG_MAX_DATA_NAME);
	hg_buf_free(&q);
	return -1;
}

/* "an integer from 1 to 4", "an integer of at least 0", ... */
static void int_range(hg_buf *b, long min, long max)
{
	if (min != LONG_MIN && max != LONG_MAX)
		hg_buf_printf(b, _("an integer from %ld to %ld"), min, max);
	else if (min != LONG_MIN)
		hg_buf_printf(b, _("an integer of at least %ld"), min);
	else if (max != LONG_MAX)
		hg_buf_printf(b, _("an integer of at most %ld"), max);
	else
		hg_buf_puts(b, _("an integer"));
}

/* A mismatch at n, saying what a node there may be: an integer from min to
 * max.  (The words are made only for a diagnostic.) */
static void int_mismatch(hg_diags *d, const char *code, const hg_ynode *n, long min, long max)
{
	hg_buf expected;
	hg_buf_init(&expected);
	int_range(&expected, min, max);
	mismatch(d, code, n, expected.data, NULL);
	hg_buf_free(&expected);
}

int hg_yint(const hg_ynode *n, long min, long max, long *out, hg_diags *d)
{
	if (!n)
		return no_node(d);
	if (n->kind != HG_Y_SCALAR || !n->plain || !is_decimal_int(n->scalar)) {
		int_mismatch(d, "data.type", n, min, max);
		return -1;
	}
	errno = 0;
	long v = strtol(n->scalar, NULL, 10);
	if (errno == ERANGE || v < min || v > max) {
		int_mismatch(d, "data.range", n, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

int hg_ybool(const hg_ynode *n, int *out, hg_diags *d)
{
	if (!n)
		return no_node(d);
	int v = n->kind == HG_Y_SCALAR && n->plain ? hg_ycore_bool(n->scalar) : -1;
	if (v < 0) {
		mismatch(d, "data.type", n, _("true or false"), NULL);
		return -1;
	}
	*out = v;
	return 0;
}

/* A mismatch at n, saying what a node there may be: one of the words. */
static void word_mismatch(hg_diags *d, const char *code, const hg_ynode *n,
			  const char *const *words, size_t nwords)
{
	hg_buf expected;
	hg_buf_init(&expected);
	if (nwords == 1)
		hg_buf_printf(&expected, "'%s'", words[0]);
	else
		hg_buf_puts(&expected, _("one of "));
	for (size_t i = 0; nwords > 1 && i < nwords; i++)
		hg_buf_printf(&expected, "%s'%s'", i == 0 ? "" : i + 1 == nwords ? _(" or ") : ", ",
			      words[i]);
	mismatch(d, code, n, expected.data, NULL);
	hg_buf_free(&expected);
}

int hg_yword(const hg_ynode *n, const char *const *words, int *out, hg_diags *d)
{
	if (!n)
		return no_node(d);
	size_t nwords = 0;
	while (words[nwords])
		nwords++;
	if (n->kind != HG_Y_SCALAR || (n->plain && hg_ycore_null(n->scalar))) {
		word_mismatch(d, "data.type", n, words, nwords);
		return -1;
	}
	for (size_t i = 0; i < nwords; i++)
		if (hg_name_eq(n->scalar, words[i])) {
			*out = (int)i;
			return 0;
		}
	word_mismatch(d, "data.range", n, words, nwords);
	return -1;
}

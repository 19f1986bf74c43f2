/* provenance.c - where each value of a game's data comes from
 * (herald-data(5), PROVENANCE), and the note a diagnostic carries when its
 * verdict rests on a reconstructed value.
 *
 * The rule texts print only part of the decks and maps, and the
 * publishers' component lists a little more; herald reconstructs the
 * rest.  A tournament director who voids a game must know when the verdict
 * rests on a reconstructed value, so every value of a data file is marked,
 * down to the single value where the texts print some of a card or an
 * area and not the rest.  Any mapping of a data file may say:
 *
 *   reconstructed: true       its values are reconstructed (false: not)
 *   provenance: WORD          its values are WORD (published, rule-text,
 *                             reconstructed)
 *   source: TITLE             where they come from: the publisher's page
 *                             title or the rule text's section
 *   provenance:               per value: KEY is the value at KEY (and all
 *     KEY: WORD               under it), KEY.ITEM one item of the list at
 *     KEY.ITEM: {is: WORD, source: TITLE}      KEY, and `*` the rest of
 *     "*": WORD                                the mapping
 *
 * and what a mapping says holds for everything under it that says
 * nothing.  A value is named by its path: the keys down to it, a list's
 * item by its `id` (a mapping), its text (a scalar) or its index. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const kind_words[] = { "published", "rule-text", "reconstructed", NULL };

const char *hg_prov_kind_name(hg_prov_kind k)
{
	switch (k) {
	case HG_PROV_PUBLISHED: return "published";
	case HG_PROV_RULE_TEXT: return "rule-text";
	case HG_PROV_RECONSTRUCTED: return "reconstructed";
	case HG_PROV_UNSTATED: break;
	}
	return "unstated";
}

int hg_prov_is_key(const char *name)
{
	return strcmp(name, "provenance") == 0 || strcmp(name, "source") == 0 ||
	       strcmp(name, "reconstructed") == 0;
}

void hg_provs_init(hg_provs *p)
{
	memset(p, 0, sizeof *p);
}

void hg_provs_free(hg_provs *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].file);
		free(p->v[i].datum);
		free(p->v[i].source);
	}
	free(p->v);
	hg_provs_init(p);
}

/* What a value is, as inherited from the mappings above it. */
typedef struct origin {
	hg_prov_kind kind;
	const char *source;
} origin;

typedef struct walker {
	hg_provs *p;
	const char *file;
	hg_diags *d;
	int rc;
} walker;

static void add_entry(walker *w, const hg_ynode *n, const char *datum, origin o)
{
	HG_GROW(w->p->v, w->p->cap, w->p->n + 1);
	hg_prov *e = &w->p->v[w->p->n++];
	e->file = hg_xstrdup(w->file);
	e->datum = hg_xstrdup(datum);
	e->line = n->pos.line;
	e->col = n->pos.col;
	e->kind = o.kind;
	e->source = o.source ? hg_xstrdup(o.source) : NULL;
	e->leaf = n->kind == HG_Y_SCALAR;
}

/* How an item of a list is named in a path. */
static void item_name(const hg_ynode *item, size_t index, hg_buf *out)
{
	const hg_ynode *id = item->kind == HG_Y_MAP ? hg_ymap_get(item, "id") : NULL;
	if (id && id->kind == HG_Y_SCALAR)
		hg_buf_puts(out, id->scalar);
	else if (item->kind == HG_Y_SCALAR)
		hg_buf_puts(out, item->scalar);
	else
		hg_buf_printf(out, "%zu", index);
}

/* A provenance word or {is: WORD, source: TITLE}: 0 with *o set, or -1. */
static int read_mark(walker *w, const hg_ynode *v, origin *o)
{
	int word;
	const hg_ynode *is = v, *source = NULL;
	if (v->kind == HG_Y_MAP) {
		static const char *const keys[] = { "!is", "source", NULL };
		if (hg_ycheck_keys(v, keys, "a provenance mark", w->d) != 0)
			return -1;
		is = hg_ymap_get(v, "is");
		source = hg_ymap_get(v, "source");
	}
	if (hg_yword(is, kind_words, &word, w->d) != 0)
		return -1;
	o->kind = (hg_prov_kind)(word + 1);
	o->source = NULL;
	if (source && hg_ystr(source, &o->source, w->d) != 0)
		return -1;
	return 0;
}

/* The list item of `list` named `name`, or NULL. */
static const hg_ynode *find_item(const hg_ynode *list, const char *name)
{
	hg_buf b;
	hg_buf_init(&b);
	const hg_ynode *found = NULL;
	for (size_t i = 0; !found && list->kind == HG_Y_SEQ && i < list->n; i++) {
		hg_buf_clear(&b);
		item_name(list->items[i], i, &b);
		if (strcmp(b.data ? b.data : "", name) == 0)
			found = list->items[i];
	}
	hg_buf_free(&b);
	return found;
}

/* Every key of a per-value `provenance` mapping must name a value of
 * `map` (KEY) or an item of a list in it (KEY.ITEM): a typo would leave
 * the value it meant marked as its mapping is. */
static void check_marks(walker *w, const hg_ynode *map, const hg_ynode *marks)
{
	for (size_t i = 0; i < hg_ymap_len(marks); i++) {
		const hg_ynode *k = hg_ymap_key(marks, i);
		origin o = { HG_PROV_UNSTATED, NULL };
		if (read_mark(w, hg_ymap_value(marks, i), &o) != 0) {
			w->rc = -1;
			continue;
		}
		if (strcmp(k->scalar, "*") == 0)
			continue;	/* the mapping's own mark */
		const char *dot = strchr(k->scalar, '.');
		char *head = dot ? hg_xstrndup(k->scalar, (size_t)(dot - k->scalar))
				 : hg_xstrdup(k->scalar);
		const hg_ynode *v = hg_prov_is_key(head) ? NULL : hg_ymap_get(map, head);
		if (v && dot && !find_item(v, dot + 1))
			v = NULL;
		if (!v) {
			hg_buf q;
			hg_buf_init(&q);
			hg_quote(&q, k->scalar);
			hg_diag *dg = hg_diag_add(w->d, HG_ERROR, k->pos, "data.reference",
						  "provenance names %s, which is not a value here",
						  q.data);
			hg_diag_note(dg, "a key of `provenance` is a key of the mapping it is "
				     "in, or KEY.ITEM for one item of the list at KEY "
				     "(herald-data(5))");
			hg_buf_free(&q);
			w->rc = -1;
		}
		free(head);
	}
}

/* The mark `marks` gives `name`, if any, over *o. */
static void apply_mark(walker *w, const hg_ynode *marks, const char *name, origin *o)
{
	const hg_ynode *v = marks ? hg_ymap_get(marks, name) : NULL;
	hg_diags quiet;	/* said once, by check_marks */
	hg_diags_init(&quiet);
	walker q = *w;
	q.d = &quiet;
	if (v)
		read_mark(&q, v, o);
	hg_diags_free(&quiet);
}

/* This mapping's own origin, from the one inherited; *marks gets its
 * per-value `provenance` mapping, if any. */
static origin own_origin(walker *w, const hg_ynode *map, origin o, const hg_ynode **marks)
{
	const hg_ynode *r = hg_ymap_get(map, "reconstructed");
	const hg_ynode *pv = hg_ymap_get(map, "provenance");
	const hg_ynode *src = hg_ymap_get(map, "source");
	int flag = 0;
	*marks = NULL;
	if (r) {
		if (hg_ybool(r, &flag, w->d) != 0)
			w->rc = -1;
		else if (flag)
			o = (origin){ HG_PROV_RECONSTRUCTED, NULL };
		else if (o.kind == HG_PROV_RECONSTRUCTED)
			o = (origin){ HG_PROV_UNSTATED, NULL };
	}
	if (pv && pv->kind == HG_Y_MAP) {
		*marks = pv;
		check_marks(w, map, pv);
		apply_mark(w, pv, "*", &o);	/* `*`: the rest of the mapping */
	} else if (pv) {
		int word;
		if (hg_yword(pv, kind_words, &word, w->d) != 0) {
			w->rc = -1;
		} else if (r && flag && word + 1 != HG_PROV_RECONSTRUCTED) {
			hg_diag_add(w->d, HG_ERROR, pv->pos, "data.range",
				    "provenance '%s' beside reconstructed: true", kind_words[word]);
			w->rc = -1;
		} else {
			o = (origin){ (hg_prov_kind)(word + 1), NULL };
		}
	}
	if (src) {
		const char *text;
		if (hg_ystr(src, &text, w->d) != 0)
			w->rc = -1;
		else
			o.source = text;
	}
	return o;
}

static void walk(walker *w, const hg_ynode *n, hg_buf *path, origin o)
{
	size_t at = path->len;
	if (at)
		add_entry(w, n, path->data, o);
	if (n->kind == HG_Y_MAP) {
		const hg_ynode *marks;
		origin own = own_origin(w, n, o, &marks);
		for (size_t i = 0; i < hg_ymap_len(n); i++) {
			const hg_ynode *k = hg_ymap_key(n, i), *v = hg_ymap_value(n, i);
			if (hg_prov_is_key(k->scalar))
				continue;
			origin child = own;
			apply_mark(w, marks, k->scalar, &child);
			path->len = at;
			hg_buf_printf(path, "%s%s", at ? "." : "", k->scalar);
			if (v->kind == HG_Y_SEQ) {
				/* KEY.ITEM marks one item of the list */
				size_t list_at = path->len;
				add_entry(w, v, path->data, child);
				hg_buf key;
				hg_buf_init(&key);
				for (size_t j = 0; j < v->n; j++) {
					path->len = list_at;
					path->data[list_at] = '\0';
					hg_buf_putc(path, '.');
					hg_buf_clear(&key);
					hg_buf_printf(&key, "%s.", k->scalar);
					item_name(v->items[j], j, &key);
					item_name(v->items[j], j, path);
					origin item = child;
					apply_mark(w, marks, key.data, &item);
					walk(w, v->items[j], path, item);
				}
				hg_buf_free(&key);
			} else {
				walk(w, v, path, child);
			}
		}
	} else if (n->kind == HG_Y_SEQ) {
		for (size_t j = 0; j < n->n; j++) {
			path->len = at;
			if (path->data)
				path->data[at] = '\0';
			hg_buf_printf(path, "%s", at ? "." : "");
			item_name(n->items[j], j, path);
			walk(w, n->items[j], path, o);
		}
	}
	path->len = at;
	if (path->data)
		path->data[at] = '\0';
}

static int prov_cmp(const void *a, const void *b)
{
	const hg_prov *x = a, *y = b;
	int c = strcmp(x->datum, y->datum);
	return c ? c : strcmp(x->file, y->file);
}

int hg_provs_collect(hg_provs *p, const hg_ydoc *doc, hg_diags *d)
{
	if (!doc || !doc->root)
		return 0;
	walker w = { p, doc->file ? doc->file : "", d, 0 };
	hg_buf path;
	hg_buf_init(&path);
	origin none = { HG_PROV_UNSTATED, NULL };
	walk(&w, doc->root, &path, none);
	hg_buf_free(&path);
	/* sorted by path, so that a diagnostic finds its datum at once */
	if (p->n)
		qsort(p->v, p->n, sizeof *p->v, prov_cmp);
	return w.rc;
}

const hg_prov *hg_provs_find(const hg_provs *p, const char *file, const char *datum)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {	/* the first entry of `datum` */
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(p->v[mid].datum, datum) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < p->n && strcmp(p->v[i].datum, datum) == 0; i++)
		if (!file || strcmp(p->v[i].file, file) == 0)
			return &p->v[i];
	return NULL;
}

void hg_provs_count(const hg_provs *p, size_t counts[HG_PROV_KINDS])
{
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].leaf)
			counts[p->v[i].kind]++;
}

void hg_diag_rests_on_add(hg_diag *dg, const char *datum, const char *file, unsigned line)
{
	for (size_t i = 0; i < dg->nrests_on; i++)
		if (strcmp(dg->rests_on[i].datum, datum) == 0 &&
		    strcmp(dg->rests_on[i].file, file) == 0)
			return;	/* once is enough */
	dg->rests_on = hg_xrealloc(dg->rests_on, (dg->nrests_on + 1) * sizeof *dg->rests_on);
	hg_rests_on *r = &dg->rests_on[dg->nrests_on++];
	r->datum = hg_xstrdup(datum);
	r->file = hg_xstrdup(file);
	r->line = line;
}

void hg_diag_rests_on(hg_diag *dg, const hg_provs *p, const char *file, const char *datum)
{
	const hg_prov *e = p ? hg_provs_find(p, file, datum) : NULL;
	if (!e || e->kind != HG_PROV_RECONSTRUCTED)
		return;
	size_t before = dg->nrests_on;
	hg_diag_rests_on_add(dg, e->datum, e->file, e->line);
	if (dg->nrests_on > before)
		hg_diag_note(dg, "this rests on the reconstructed datum %s (%s:%u; herald-data(5))",
			     e->datum, e->file, e->line);
}

void hg_diag_copy_rests_on(hg_diag *dst, const hg_diag *src)
{
	for (size_t i = 0; i < src->nrests_on; i++)
		hg_diag_rests_on_add(dst, src->rests_on[i].datum, src->rests_on[i].file,
			     src->rests_on[i].line);
}

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
		free(p->v[i].datum);
		free(p->v[i].source);
	}
	free(p->v);
	hg_strv_free(p->files, p->nfiles);
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

/* Left out when there is no memory for it (the unit of work reports it). */
static void add_entry(walker *w, const hg_ynode *n, const char *datum, origin o)
{
	if (hg_alloc_lost() || HG_TRY_GROW(w->p->v, w->p->cap, w->p->n + 1) != 0)
		return;
	char *copy = hg_try_strdup(datum);
	char *source = copy && o.source ? hg_try_strdup(o.source) : NULL;
	if (!copy || (o.source && !source)) {
		free(copy);
		return;
	}
	hg_prov *e = &w->p->v[w->p->n++];
	e->file = w->file;	/* the set's copy, shared by the file's values */
	e->datum = copy;
	e->line = n->pos.line;
	e->col = n->pos.col;
	e->kind = o.kind;
	e->source = source;
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

/* A mapping's per-value `provenance` marks, sorted by key for lookups in
 * O(log n): a file may mark every item of a long list, and a lookup per
 * item must not scan the marks.  A mark no value takes is a typo, said
 * once the mapping is walked. */
typedef struct mark {
	const char *key;
	const hg_ynode *key_node;
	origin o;
	int good;		/* read without error */
	int used;		/* a value of the mapping took it */
} mark;

typedef struct marks {
	mark *v;
	size_t n;
	origin all;		/* `*`, when there is one */
	int has_all;
} marks;

static int mark_cmp(const void *a, const void *b)
{
	return strcmp(((const mark *)a)->key, ((const mark *)b)->key);
}

static void marks_read(walker *w, const hg_ynode *pv, marks *m)
{
	m->v = hg_try_calloc(hg_ymap_len(pv) + 1, sizeof *m->v);
	m->n = 0;
	m->has_all = 0;
	if (!m->v)
		return;		/* no marks (the unit of work reports it) */
	for (size_t i = 0; i < hg_ymap_len(pv); i++) {
		const hg_ynode *k = hg_ymap_key(pv, i);
		origin o = { HG_PROV_UNSTATED, NULL };
		int good = read_mark(w, hg_ymap_value(pv, i), &o) == 0;
		if (!good)
			w->rc = -1;
		if (strcmp(k->scalar, "*") == 0) {
			m->all = o;
			m->has_all = good;
			continue;
		}
		m->v[m->n++] = (mark){ k->scalar, k, o, good, 0 };
	}
	if (m->n)
		qsort(m->v, m->n, sizeof *m->v, mark_cmp);
}

/* The mark of `name` over *o, if there is one. */
static void marks_apply(marks *m, const char *name, origin *o)
{
	if (!m || !m->n)
		return;
	mark key = { name, NULL, { HG_PROV_UNSTATED, NULL }, 0, 0 };
	mark *found = bsearch(&key, m->v, m->n, sizeof *m->v, mark_cmp);
	if (!found)
		return;
	found->used = 1;
	if (found->good)
		*o = found->o;
}

/* Every mark must name a value of its mapping (KEY) or an item of a list
 * in it (KEY.ITEM): a typo would leave the value it meant marked as its
 * mapping is. */
static void marks_finish(walker *w, marks *m)
{
	for (size_t i = 0; i < m->n; i++) {
		if (m->v[i].used || !m->v[i].good)
			continue;
		hg_buf q;
		hg_buf_init(&q);
		hg_quote(&q, m->v[i].key);
		hg_diag *dg = hg_diag_add(w->d, HG_ERROR, m->v[i].key_node->pos, "data.reference",
					  "provenance names %s, which is not a value here", q.data);
		hg_diag_note(dg, "a key of `provenance` is a key of the mapping it is in, "
			     "KEY.ITEM for one item of the list at KEY, or * (herald-data(5))");
		hg_buf_free(&q);
		w->rc = -1;
	}
	free(m->v);
	m->v = NULL;
}

/* This mapping's own origin, from the one inherited; *m gets its
 * per-value marks (*has_marks 1) when `provenance` is a mapping. */
static origin own_origin(walker *w, const hg_ynode *map, origin o, marks *m, int *has_marks)
{
	const hg_ynode *r = hg_ymap_get(map, "reconstructed");
	const hg_ynode *pv = hg_ymap_get(map, "provenance");
	const hg_ynode *src = hg_ymap_get(map, "source");
	int flag = 0;
	*has_marks = 0;
	if (r) {
		if (hg_ybool(r, &flag, w->d) != 0)
			w->rc = -1;
		else if (flag)
			o = (origin){ HG_PROV_RECONSTRUCTED, NULL };
		else if (o.kind == HG_PROV_RECONSTRUCTED)
			o = (origin){ HG_PROV_UNSTATED, NULL };
	}
	if (pv && pv->kind == HG_Y_MAP) {
		marks_read(w, pv, m);
		*has_marks = 1;
		if (m->has_all)	/* `*`: the rest of the mapping */
			o = m->all;
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

/* Cuts path back to its first `at` bytes. */
static void path_cut(hg_buf *path, size_t at)
{
	path->len = at;
	if (path->data)
		path->data[at] = '\0';
}

static void walk(walker *w, const hg_ynode *n, hg_buf *path, origin o);

/* The items of the list at key `k` (path ends with it): KEY.ITEM marks
 * one of them. */
static void walk_list(walker *w, const hg_ynode *list, const char *k, hg_buf *path, origin o,
		      marks *m)
{
	size_t list_at = path->len;
	add_entry(w, list, path->data, o);
	hg_buf key;
	hg_buf_init(&key);
	for (size_t j = 0; j < list->n; j++) {
		path_cut(path, list_at);
		hg_buf_putc(path, '.');
		item_name(list->items[j], j, path);
		origin item = o;
		if (m) {
			hg_buf_clear(&key);
			hg_buf_printf(&key, "%s.", k);
			item_name(list->items[j], j, &key);
			if (hg_buf_failed(&key))
				break;	/* (the unit of work reports it) */
			marks_apply(m, key.data, &item);
		}
		walk(w, list->items[j], path, item);
	}
	hg_buf_free(&key);
}

static void walk(walker *w, const hg_ynode *n, hg_buf *path, origin o)
{
	if (hg_alloc_lost())
		return;		/* the table is dropped */
	size_t at = path->len;
	if (at)
		add_entry(w, n, path->data, o);
	if (n->kind == HG_Y_MAP) {
		marks m = { NULL, 0, { HG_PROV_UNSTATED, NULL }, 0 };
		int has_marks;
		origin own = own_origin(w, n, o, &m, &has_marks);
		for (size_t i = 0; i < hg_ymap_len(n); i++) {
			const hg_ynode *k = hg_ymap_key(n, i), *v = hg_ymap_value(n, i);
			if (hg_prov_is_key(k->scalar))
				continue;
			origin child = own;
			marks_apply(has_marks ? &m : NULL, k->scalar, &child);
			path_cut(path, at);
			hg_buf_printf(path, "%s%s", at ? "." : "", k->scalar);
			if (v->kind == HG_Y_SEQ)
				walk_list(w, v, k->scalar, path, child, has_marks ? &m : NULL);
			else
				walk(w, v, path, child);
		}
		if (has_marks)
			marks_finish(w, &m);
	} else if (n->kind == HG_Y_SEQ) {
		for (size_t j = 0; j < n->n; j++) {
			path_cut(path, at);
			if (at)
				hg_buf_putc(path, '.');
			item_name(n->items[j], j, path);
			walk(w, n->items[j], path, o);
		}
	}
	path_cut(path, at);
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
	char **files = hg_try_realloc(p->files, (p->nfiles + 1) * sizeof *p->files);
	if (!files)
		return 0;	/* (the unit of work reports it) */
	p->files = files;
	p->files[p->nfiles] = hg_try_strdup(doc->file ? doc->file : "");
	if (!p->files[p->nfiles])
		return 0;
	walker w = { p, p->files[p->nfiles++], d, 0 };
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
	/* Short of memory in a unit of work (dg may be the stand-in of a
	 * diagnostic dropped), the entry is left out: the unit reports it. */
	if (hg_alloc_lost())
		return;
	hg_rests_on *v = hg_try_realloc(dg->rests_on, (dg->nrests_on + 1) * sizeof *dg->rests_on);
	if (!v)
		return;
	dg->rests_on = v;
	char *dcopy = hg_try_strdup(datum), *fcopy = dcopy ? hg_try_strdup(file) : NULL;
	if (!fcopy) {
		free(dcopy);
		return;
	}
	hg_rests_on *r = &dg->rests_on[dg->nrests_on++];
	r->datum = dcopy;
	r->file = fcopy;
	r->line = line;
}

void hg_diag_rests_on(hg_diag *dg, const hg_provs *p, const char *file, const char *datum)
{
	const hg_prov *e = p && datum ? hg_provs_find(p, file, datum) : NULL;
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

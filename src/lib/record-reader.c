/* record-reader.c - the one reader of the record model: a game of a JSON
 * or YAML record, pulled value by value from a front end (see
 * record-reader.h), checked against the shape of
 * grammar/herald-record.schema.json and built into hg_game_record.
 *
 * A game's lines are read node by node and a node's variation as it comes,
 * so the reader holds the record being built and one node's scalars,
 * never a tree of the game (the YAML front end's loader holds one).  Every shape error is reported, at the value's place
 * and naming it by its path (games[0].moves[3].seat); the reader goes on
 * to the next value, up to HG_RECORD_MAX_ERRORS.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "record-reader.h"
#include "yaml-tree.h"

static const char *const glyphs[] = { "!", "?", "!!", "??", "!?", "?!", NULL };

typedef enum line_kind { LINE_MOVES, LINE_COMMENTS } line_kind;

void hg_record_reader_init(hg_record_reader *r, const char *name, const char *code)
{
	memset(r, 0, sizeof *r);
	r->name = name;
	r->code = code;
	hg_buf_init(&r->path);
	for (size_t i = 0; i < HG_ARRAY_LEN(r->scratch); i++)
		hg_buf_init(&r->scratch[i]);
}

void hg_record_reader_free(hg_record_reader *r)
{
	hg_buf_free(&r->path);
	for (size_t i = 0; i < HG_ARRAY_LEN(r->scratch); i++)
		hg_buf_free(&r->scratch[i]);
}

/* ------------------------------------------------------------------------
 * Paths and messages.
 * ------------------------------------------------------------------------ */
size_t hg_record_path_key(hg_record_reader *r, const char *key)
{
	size_t mark = r->path.len;
	if (r->path.len)
		hg_buf_putc(&r->path, '.');
	hg_buf_puts(&r->path, key);
	return mark;
}

size_t hg_record_path_index(hg_record_reader *r, size_t i)
{
	size_t mark = r->path.len;
	/* once for every node read: digits by hand, not printf */
	char digits[24];
	size_t n = sizeof digits;
	digits[--n] = ']';
	do
		digits[--n] = (char)('0' + i % 10);
	while ((i /= 10) > 0);
	digits[--n] = '[';
	hg_buf_putn(&r->path, digits + n, sizeof digits - n);
	return mark;
}

void hg_record_path_pop(hg_record_reader *r, size_t mark)
{
	r->path.len = mark;
	if (r->path.data)
		r->path.data[mark] = '\0';
}

static const char *where(const hg_record_reader *r)
{
	return r->path.len ? r->path.data : "the document";
}

/* Where the model keeps a position: the record owns the file's name. */
static hg_pos model_pos(const hg_record_reader *r, hg_pos pos)
{
	pos.file = r->g ? r->g->file : r->name;
	return pos;
}

static hg_diag *record_error(hg_record_reader *r, hg_pos pos, const char *fmt, ...)
	HG_PRINTF(3, 4);

static hg_diag *record_error(hg_record_reader *r, hg_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = hg_diag_vadd(r->d, HG_ERROR, pos, r->code, fmt, ap);
	va_end(ap);
	return dg;
}

/* Enough errors: stop checking (asked between values). */
static int too_many_errors(hg_record_reader *r)
{
	if (r->d->nerrors - r->errors_at_start >= HG_RECORD_MAX_ERRORS)
		r->gave_up = 1;
	return r->gave_up || r->stopped;
}

/* A plain scalar the core schema takes for a number, a boolean or null is
 * shown as it is; any other text quoted. */
static void found_scalar(hg_buf *b, const char *text, int plain)
{
	if (plain && !*text) {
		hg_buf_puts(b, _("nothing"));
	} else if (plain && (hg_ycore_int(text) || hg_ycore_float(text) ||
			     hg_ycore_bool(text) >= 0 || hg_ycore_null(text))) {
		hg_buf_puts(b, text);
	} else {
		if (!plain)
			hg_buf_puts(b, _("the string "));
		hg_quote(b, text);
	}
}

/* "expected <expected> for <path>, found <it>" */
static void mismatch_at(hg_record_reader *r, const hg_record_source *src,
			const char *expected, hg_pos pos, hg_rvalue_kind kind,
			const char *text, int plain)
{
	hg_buf instead;
	hg_buf_init(&instead);
	if (kind == HG_RV_MAP)
		hg_buf_puts(&instead, src->a_map);
	else if (kind == HG_RV_LIST)
		hg_buf_puts(&instead, src->a_list);
	else
		found_scalar(&instead, text ? text : "", plain);
	record_error(r, pos, "expected %s for %s, found %s", expected, where(r), instead.data);
	hg_buf_free(&instead);
}

void hg_record_mismatch(hg_record_reader *r, const hg_record_source *src,
			const char *expected, const hg_rvalue *v)
{
	mismatch_at(r, src, expected, v->pos, v->kind, v->text, v->plain);
}

/* The next value; HG_RV_STOP noted. */
static hg_rvalue_kind next(hg_record_reader *r, hg_record_source *src, hg_rvalue *v)
{
	hg_rvalue_kind k = src->next(src, v);
	if (k == HG_RV_STOP)
		r->stopped = 1;
	return k;
}

/* Closes the list or mapping v opened, unread. */
static void skip(hg_record_reader *r, hg_record_source *src, const hg_rvalue *v)
{
	if ((v->kind == HG_RV_LIST || v->kind == HG_RV_MAP) && src->skip(src) != 0)
		r->stopped = 1;
}

/* ------------------------------------------------------------------------
 * A list's items, one at a time: each item's index is on the path while it
 * is read.  The walk ends at the list's end, when the source stops, or
 * when there were too many errors to go on (the rest left unread).
 * ------------------------------------------------------------------------ */
typedef struct item_walk {
	size_t taken;		/* items given so far */
	size_t mark;		/* the path before the item given last */
} item_walk;

/* The next item of the open list in v: 1, or 0 when the walk ends.  Each
 * call takes the item given before off the path. */
static int next_item(hg_record_reader *r, hg_record_source *src, item_walk *w, hg_rvalue *v)
{
	if (w->taken)
		hg_record_path_pop(r, w->mark);
	hg_rvalue_kind k;
	if (r->stopped || (k = next(r, src, v)) == HG_RV_END || k == HG_RV_STOP ||
	    too_many_errors(r))
		return 0;
	w->mark = hg_record_path_index(r, w->taken++);
	return 1;
}

/* ------------------------------------------------------------------------
 * A mapping's members, gathered: each of `keys` (a leading '!' marks a
 * required one) with its scalar's text, or the kind of list or mapping it
 * was (skipped unread: a message says "found an object", never what is in
 * it); unknown keys are kept to be said once the mapping is read.
 * ------------------------------------------------------------------------ */
#define MAX_KEYS 9

typedef struct member {
	int present;
	hg_rvalue_kind kind;
	hg_pos pos, key_pos;
	size_t text;		/* offset in the scratch buffer */
	int plain, is_string;
} member;

typedef struct unknown {
	size_t key;		/* offset in the scratch buffer */
	hg_pos pos;
} unknown;

typedef struct members {
	const char *const *keys;
	member m[MAX_KEYS];
	hg_buf *scratch;
	hg_pos pos;		/* of the mapping */
	unknown *unknown;
	size_t nunknown, capunknown;
} members;

static const char *key_name(const char *spec)
{
	return spec[0] == '!' ? spec + 1 : spec;
}

static int key_index(const char *const *keys, const char *key)
{
	for (int i = 0; keys[i]; i++) {
		const char *name = key_name(keys[i]);
		if (name[0] == key[0] && strcmp(name, key) == 0)
			return i;
	}
	return -1;
}

static void members_start(members *ms, const char *const *keys, hg_buf *scratch, hg_pos pos)
{
	memset(ms, 0, sizeof *ms);
	ms->keys = keys;
	ms->scratch = scratch;
	ms->pos = pos;
	hg_buf_clear(scratch);
	hg_buf_putc(scratch, '\0');	/* offset 0: an empty text */
}

static void members_free(members *ms)
{
	free(ms->unknown);
}

static size_t keep_text(members *ms, const char *text)
{
	size_t at = ms->scratch->len;
	hg_buf_puts(ms->scratch, text);
	hg_buf_putc(ms->scratch, '\0');
	return at;
}

/* The text kept at offset `at` of the scratch buffer ("" when there was
 * no memory for it: the unit of work, util.c, fails). */
static const char *scratch_text(const members *ms, size_t at)
{
	return ms->scratch->data && at < ms->scratch->len ? ms->scratch->data + at : "";
}

static const char *member_text(const members *ms, int i)
{
	return scratch_text(ms, ms->m[i].text);
}

/* Takes member v (a scalar, or a list or mapping, skipped) into ms. */
static void take_member(hg_record_reader *r, hg_record_source *src, members *ms,
			const hg_rvalue *v)
{
	int i = key_index(ms->keys, v->key);
	if (i < 0) {
		/* no more than can be said: a mapping of a million unknown
		 * keys costs no memory for them */
		if (ms->nunknown < HG_RECORD_MAX_ERRORS &&
		    HG_TRY_GROW(ms->unknown, ms->capunknown, ms->nunknown + 1) == 0) {
			ms->unknown[ms->nunknown].key = keep_text(ms, v->key);
			ms->unknown[ms->nunknown++].pos = v->key_pos;
		}
	} else {
		member *m = &ms->m[i];
		m->present = 1;
		m->kind = v->kind;
		m->pos = v->pos;
		m->key_pos = v->key_pos;
		m->plain = v->plain;
		m->is_string = v->is_string;
		m->text = v->kind == HG_RV_SCALAR ? keep_text(ms, v->text) : 0;
	}
	skip(r, src, v);
}

/* The mapping's members, to its end. */
static void gather(hg_record_reader *r, hg_record_source *src, members *ms)
{
	hg_rvalue v;
	hg_rvalue_kind k;
	while (!r->stopped && (k = next(r, src, &v)) != HG_RV_END && k != HG_RV_STOP)
		take_member(r, src, ms, &v);
}

static void unknown_key(hg_record_reader *r, const char *key, hg_pos pos,
			const char *const *allowed)
{
	hg_buf q, list;
	hg_buf_init(&q);
	hg_buf_init(&list);
	hg_quote(&q, key);
	hg_diag *dg = record_error(r, pos, "unknown key %s in %s", q.data, where(r));
	hg_names *t = hg_names_new();
	for (size_t i = 0; allowed[i]; i++) {
		hg_names_add(t, key_name(allowed[i]), (int)i, NULL);
		hg_buf_printf(&list, "%s%s%s", i ? ", " : "", key_name(allowed[i]),
			      allowed[i][0] == '!' ? " (required)" : "");
	}
	int best;
	if (hg_names_suggest(t, key, &best, 1) == 1)
		hg_diag_note(dg, "did you mean '%s'?", key_name(allowed[best]));
	hg_diag_note(dg, "the keys allowed here are: %s", list.data);
	hg_names_free(t);
	hg_buf_free(&q);
	hg_buf_free(&list);
}

/* Says which keys are not `allowed` (a subset of ms->keys, or them all)
 * and which required ones are missing: 0 when none. */
static int check_members(hg_record_reader *r, const members *ms, const char *const *allowed)
{
	int rc = ms->nunknown ? -1 : 0;
	for (size_t i = 0; i < ms->nunknown && !too_many_errors(r); i++)
		unknown_key(r, scratch_text(ms, ms->unknown[i].key), ms->unknown[i].pos, allowed);
	for (int i = 0; ms->keys[i]; i++)
		if (ms->m[i].present && key_index(allowed, key_name(ms->keys[i])) < 0) {
			unknown_key(r, key_name(ms->keys[i]), ms->m[i].key_pos, allowed);
			rc = -1;
		}
	for (int i = 0; allowed[i]; i++)
		if (allowed[i][0] == '!' && !ms->m[key_index(ms->keys, allowed[i] + 1)].present) {
			record_error(r, ms->pos, "missing key '%s' in %s", allowed[i] + 1, where(r));
			rc = -1;
		}
	return rc;
}

static void member_mismatch(hg_record_reader *r, const hg_record_source *src,
			    const members *ms, int i, const char *expected)
{
	const member *m = &ms->m[i];
	size_t mark = hg_record_path_key(r, key_name(ms->keys[i]));
	mismatch_at(r, src, expected, m->pos, m->kind, member_text(ms, i), m->plain);
	hg_record_path_pop(r, mark);
}

/* The string of member i, NULL when absent or after a diagnostic.  `flat`:
 * the string must not hold a line break (HGN strings cannot). */
static const char *get_string(hg_record_reader *r, const hg_record_source *src,
			      const members *ms, int i, int flat)
{
	const member *m = &ms->m[i];
	if (!m->present)
		return NULL;	/* said by check_members() */
	if (m->kind != HG_RV_SCALAR || !m->is_string) {
		member_mismatch(r, src, ms, i, _("a string"));
		return NULL;
	}
	const char *s = member_text(ms, i);
	size_t mark = hg_record_path_key(r, key_name(ms->keys[i]));
	long control;
	if (strlen(s) > HG_MAX_TOKEN) {
		record_error(r, m->pos, "the string for %s is longer than %d bytes", where(r),
			    HG_MAX_TOKEN);
		s = NULL;
	} else if (flat && strchr(s, '\n')) {
		record_error(r, m->pos, "the string for %s holds a line break", where(r));
		s = NULL;
	} else if ((control = hg_first_control(s)) >= 0) {
		record_error(r, m->pos, "the string for %s holds the control character U+%04lX",
			    where(r), (unsigned long)control);
		s = NULL;
	}
	hg_record_path_pop(r, mark);
	return s;
}

/* Is s a plain decimal integer ([-+]?[0-9]+)? */
static int decimal(const char *s)
{
	s += *s == '-' || *s == '+';
	return *s && s[strspn(s, "0123456789")] == '\0';
}

/* The integer of member i (present) in [min, max]: 0, or -1 after a
 * diagnostic.  A number with nothing after its point is an integer (JSON
 * has numbers, not integers: 3.0 is 3, as for JSON Schema). */
static int get_int(hg_record_reader *r, const hg_record_source *src, const members *ms,
		   int i, long long min, long long max, long long *out)
{
	const member *m = &ms->m[i];
	const char *s = member_text(ms, i);
	int ok = m->kind == HG_RV_SCALAR && m->plain;
	long long v = 0;
	if (ok && decimal(s)) {
		errno = 0;
		v = strtoll(s, NULL, 10);
		ok = errno != ERANGE;
	} else if (ok && hg_ycore_float(s)) {
		double x = strtod(s, NULL);
		/* (false for a NaN) */
		ok = x > -9e18 && x < 9e18 && x == (double)(long long)x;
		v = ok ? (long long)x : 0;
	} else {
		ok = 0;
	}
	if (ok && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	hg_buf expected;
	hg_buf_init(&expected);
	hg_buf_printf(&expected, _("an integer from %lld to %lld"), min, max);
	member_mismatch(r, src, ms, i, expected.data);
	hg_buf_free(&expected);
	return -1;
}

/* The boolean of member i, when present; -1 after a diagnostic. */
static int get_bool(hg_record_reader *r, const hg_record_source *src, const members *ms,
		    int i, int *out)
{
	const member *m = &ms->m[i];
	if (!m->present)
		return 0;
	int v = m->kind == HG_RV_SCALAR && m->plain ? hg_ycore_bool(member_text(ms, i)) : -1;
	if (v < 0) {
		member_mismatch(r, src, ms, i, _("true or false"));
		return -1;
	}
	*out = v;
	return 0;
}

/* ------------------------------------------------------------------------
 * Lines and nodes.
 * ------------------------------------------------------------------------ */
static void read_line(hg_record_reader *r, hg_record_source *src, hg_line *line,
		      line_kind kind, unsigned depth);

/* The keys of a node; each of the first five makes a kind of node. */
enum { K_MOVE, K_SEAT, K_COMMENT, K_NAG, K_VARIATION, K_ACTION, K_GLYPH, K_LINE, K_OWN_LINE,
       K_KINDS = K_ACTION };
static const char *const node_keys[] = { "move", "seat", "comment", "nag", "variation",
					  "action", "glyph", "line", "own_line", NULL };
/* Those each kind may have. */
static const char *const *const kind_keys[] = {
	(const char *const[]){ "!move", NULL },
	(const char *const[]){ "!seat", "!action", "glyph", NULL },
	(const char *const[]){ "!comment", "line", "own_line", NULL },
	(const char *const[]){ "!nag", NULL },
	(const char *const[]){ "!variation", NULL },
};

static void read_action(hg_record_reader *r, const hg_record_source *src, const members *ms,
			hg_node *n)
{
	const char *seat = get_string(r, src, ms, K_SEAT, 1);
	const char *body = get_string(r, src, ms, K_ACTION, 0);
	const member *glyph = &ms->m[K_GLYPH];
	if (glyph->present) {
		size_t i = 0;
		int string = glyph->kind == HG_RV_SCALAR && glyph->is_string;
		while (string && glyphs[i] && strcmp(glyphs[i], member_text(ms, K_GLYPH)) != 0)
			i++;
		if (string && glyphs[i])
			n->glyph = hg_try_strdup(glyphs[i]);	/* (NULL: the unit fails) */
		else
			member_mismatch(r, src, ms, K_GLYPH,
					_("one of '!', '?', '!!', '?\?', '!?' or '?!'"));
	}
	if (!seat || !body)
		return;
	if (++r->actions > HG_MAX_ACTIONS) {
		if (r->actions == HG_MAX_ACTIONS + 1)
			record_error(r, ms->pos, "the game has more than %d actions", HG_MAX_ACTIONS);
		return;
	}
	/* The body is cut into tokens as the lexer would cut "seat: body";
	 * placing that text so that the body falls where it stands here gives
	 * its tokens their own columns (a quoted body starts after its
	 * quote).  A body that spans lines or holds escapes ends up
	 * approximate, so the lexer's messages name the action by its path. */
	hg_pos pos = model_pos(r, ms->m[K_ACTION].pos);
	unsigned shift = (unsigned)hg_utf8_chars(seat, strlen(seat)) + 2;
	if (!ms->m[K_ACTION].plain)
		pos.col++;
	pos.col = pos.col > shift ? pos.col - shift : 1;
	size_t before = r->d->n, errors = r->d->nerrors;
	if (hg_action_text_set(&n->action, seat, body, pos, r->d) != 0 &&
	    r->d->nerrors == errors)
		record_error(r, ms->m[K_ACTION].pos, "the action at %s cannot be read", where(r));
	for (size_t i = before; i < r->d->n; i++)
		hg_diag_note(&r->d->v[i], "in the action at %s", where(r));
	n->action.seat_pos = model_pos(r, ms->m[K_SEAT].pos);
}

static void read_comment(hg_record_reader *r, const hg_record_source *src, const members *ms,
			 hg_node *n)
{
	get_bool(r, src, ms, K_LINE, &n->line_comment);
	get_bool(r, src, ms, K_OWN_LINE, &n->own_line);
	const char *text = get_string(r, src, ms, K_COMMENT, n->line_comment);
	if (!text)
		return;
	if (!n->line_comment && strchr(text, '}')) {
		size_t mark = hg_record_path_key(r, "comment");
		record_error(r, ms->m[K_COMMENT].pos, "the brace comment at %s holds a '}'",
			    where(r));
		hg_record_path_pop(r, mark);
		return;
	}
	n->comment = hg_try_strdup(text);	/* (NULL: the unit fails) */
}

/* Which kind of node ms is (K_MOVE ... K_VARIATION), or -1 after a
 * diagnostic. */
static int node_kind(hg_record_reader *r, const members *ms)
{
	int kind = -1, nkinds = 0;
	for (int i = 0; i < K_KINDS; i++) {
		if (!ms->m[i].present && !(i == K_SEAT && ms->m[K_ACTION].present))
			continue;
		if (nkinds++ == 0)
			kind = i;
		else
			record_error(r, ms->pos, "%s has both '%s' and '%s': a node is one thing",
				    where(r), node_keys[kind], node_keys[i]);
	}
	if (nkinds == 0) {
		hg_diag *dg = record_error(r, ms->pos, "%s is not a node", where(r));
		hg_diag_note(dg, "a node has one of the keys 'move', 'seat' (with 'action'), "
			     "'comment', 'nag' or 'variation'");
	}
	return nkinds == 1 ? kind : -1;
}

/* A node of `line`: v is its value, opened when a mapping.  A variation
 * is read into a line of its own as it comes, before the node's other
 * members are seen, and taken when the node turns out to be one. */
static void read_node(hg_record_reader *r, hg_record_source *src, const hg_rvalue *v,
		      hg_line *line, line_kind lk, unsigned depth)
{
	if (v->kind != HG_RV_MAP) {
		hg_record_mismatch(r, src, src->a_map, v);
		skip(r, src, v);
		return;
	}
	members ms;
	members_start(&ms, node_keys, &r->scratch[depth], v->pos);
	hg_line *variation = NULL;
	hg_rvalue m;
	hg_rvalue_kind k;
	while (!r->stopped && (k = next(r, src, &m)) != HG_RV_END && k != HG_RV_STOP) {
		if (m.kind == HG_RV_LIST && !variation && depth < HG_MAX_NESTING &&
		    strcmp(m.key, "variation") == 0) {
			member *vm = &ms.m[K_VARIATION];
			vm->present = 1;
			vm->kind = HG_RV_LIST;
			vm->pos = m.pos;
			vm->key_pos = m.key_pos;
			variation = hg_line_try_new();
			if (!variation) {	/* (the unit of work fails) */
				skip(r, src, &m);
				continue;
			}
			size_t mark = hg_record_path_key(r, "variation");
			read_line(r, src, variation, LINE_MOVES, depth + 1);
			hg_record_path_pop(r, mark);
		} else {
			take_member(r, src, &ms, &m);
		}
	}
	int kind = r->stopped ? -1 : node_kind(r, &ms);
	if (kind >= 0 && lk == LINE_COMMENTS && kind != K_COMMENT) {
		record_error(r, ms.pos, "expected a comment for %s, found a '%s' node: the header "
			    "and the trailer hold comments only", where(r), node_keys[kind]);
		kind = -1;
	}
	/* each costs a node, as in HGN (herald-notation(5), LIMITS) */
	if (kind >= 0 && kind != K_SEAT && ++r->elements > HG_MAX_ELEMENTS) {
		if (r->elements == HG_MAX_ELEMENTS + 1)
			record_error(r, ms.pos, "the game has more than %d move numbers, comments, "
				    "NAGs and variations", HG_MAX_ELEMENTS);
		kind = -1;
	}
	if (kind >= 0)
		check_members(r, &ms, kind_keys[kind]);
	hg_pos pos = model_pos(r, ms.pos);
	hg_node *n = NULL;
	long long number;
	/* without memory for the node (the unit of work fails) it is not read */
	static const hg_node_kind node_kinds[] = { HG_NODE_MOVENUM, HG_NODE_ACTION,
						   HG_NODE_COMMENT, HG_NODE_NAG,
						   HG_NODE_VARIATION };
	if (kind >= 0 && !(kind == K_VARIATION && depth >= HG_MAX_NESTING) &&
	    !(n = hg_line_try_push(line, node_kinds[kind], pos)))
		kind = -1;
	switch (kind) {
	case K_MOVE:
		if (ms.m[K_MOVE].present && get_int(r, src, &ms, K_MOVE, 0, UINT_MAX, &number) == 0)
			n->number = (unsigned)number;
		break;
	case K_SEAT:
		read_action(r, src, &ms, n);
		break;
	case K_COMMENT:
		read_comment(r, src, &ms, n);
		break;
	case K_NAG:
		if (get_int(r, src, &ms, K_NAG, 0, 255, &number) == 0)
			n->number = (unsigned)number;
		break;
	case K_VARIATION:
		if (depth >= HG_MAX_NESTING) {
			record_error(r, ms.pos, "variations nested more than %d deep at %s",
				    HG_MAX_NESTING, where(r));
			break;
		}
		if (variation) {
			n->variation = variation;
			variation = NULL;
		} else {
			n->variation = hg_line_try_new();	/* (NULL: the unit fails) */
			member_mismatch(r, src, &ms, K_VARIATION, src->a_list);
		}
		break;
	default:
		break;
	}
	if (variation) {	/* not taken: the node was no variation */
		hg_line_free(variation);
		free(variation);
	}
	members_free(&ms);
}

/* The items of an open list, each a node of `line`. */
static void read_line(hg_record_reader *r, hg_record_source *src, hg_line *line,
		      line_kind kind, unsigned depth)
{
	item_walk w = { 0, 0 };
	hg_rvalue v;
	while (next_item(r, src, &w, &v))
		read_node(r, src, &v, line, kind, depth);
}

/* ------------------------------------------------------------------------
 * Tags and the game.
 * ------------------------------------------------------------------------ */
static const char *const tag_keys[] = { "!name", "!value", NULL };

/* One item of "tags" (its path pushed). */
static void read_tag(hg_record_reader *r, hg_record_source *src, const hg_rvalue *v)
{
	hg_game_record *g = r->g;
	if (v->kind != HG_RV_MAP) {
		hg_record_mismatch(r, src, src->a_map, v);
		skip(r, src, v);
		return;
	}
	members ms;
	members_start(&ms, tag_keys, &r->scratch[0], v->pos);
	gather(r, src, &ms);
	if (r->stopped || check_members(r, &ms, tag_keys) != 0) {
		members_free(&ms);
		return;
	}
	const char *name = get_string(r, src, &ms, 0, 1);
	const char *value = get_string(r, src, &ms, 1, 1);
	if (name && !hg_tag_name_ok(name, strlen(name))) {
		size_t mark = hg_record_path_key(r, "name");
		hg_buf q;
		hg_buf_init(&q);
		hg_quote(&q, name);
		hg_diag *dg = record_error(r, ms.m[0].pos, "%s at %s is not a tag name", q.data,
					  where(r));
		hg_diag_note(dg, "a tag name is an ASCII letter followed by ASCII "
			     "letters, digits and '_'");
		hg_buf_free(&q);
		hg_record_path_pop(r, mark);
	} else if (name && value && g->ntags >= HG_MAX_TAGS) {
		record_error(r, ms.pos, "more than %d tags in one game, at %s", HG_MAX_TAGS,
			    where(r));
		r->tags_over = 1;	/* the rest of the tags is not read */
	} else if (name && value) {
		/* Appended, not set: the model keeps every tag as written,
		 * repeats included, for the checker. */
		char *tn = hg_try_strdup(name), *tv = hg_try_strdup(value);
		if (!tn || !tv || HG_TRY_GROW(g->tags, g->captags, g->ntags + 1) != 0) {
			free(tn);	/* (the unit of work fails) */
			free(tv);
		} else {
			hg_tag *t = &g->tags[g->ntags++];
			t->name = tn;
			t->value = tv;
			t->pos = model_pos(r, ms.pos);
		}
	}
	members_free(&ms);
}

/* The items of the open list of tags; past HG_MAX_TAGS, skipped. */
static void read_tags(hg_record_reader *r, hg_record_source *src)
{
	item_walk w = { 0, 0 };
	hg_rvalue v;
	while (next_item(r, src, &w, &v)) {
		if (r->tags_over)
			skip(r, src, &v);
		else
			read_tag(r, src, &v);
	}
}

static const char *const game_keys[] = { "!tags", "header", "!moves", "!result", "trailer",
					  NULL };
enum { G_TAGS, G_HEADER, G_MOVES, G_RESULT, G_TRAILER };

hg_game_record *hg_record_read_game(hg_record_reader *r, hg_record_source *src,
				    const hg_rvalue *v)
{
	r->stopped = 0;
	if (v->kind != HG_RV_MAP) {
		hg_record_mismatch(r, src, src->a_map, v);
		skip(r, src, v);
		return NULL;
	}
	hg_game_record *g = hg_record_try_new(r->name);
	if (!g) {	/* (the unit of work fails) */
		r->stopped = 1;
		return NULL;
	}
	r->g = g;
	r->actions = 0;
	r->elements = 0;
	r->tags_over = 0;
	g->pos = model_pos(r, v->pos);
	g->result_pos = g->pos;
	/* the lines and the tags as they come; the scalars (and what stands
	 * where a list should) gathered, and looked at at the end */
	members ms;
	members_start(&ms, game_keys, &r->scratch[HG_MAX_NESTING + 1], v->pos);
	hg_rvalue m;
	hg_rvalue_kind k;
	while (!too_many_errors(r) && (k = next(r, src, &m)) != HG_RV_END && k != HG_RV_STOP) {
		int i = key_index(game_keys, m.key);
		size_t mark = hg_record_path_key(r, m.key);
		hg_line *line = i == G_HEADER ? &g->header : i == G_MOVES ? &g->moves
			      : i == G_TRAILER ? &g->trailer : NULL;
		if (m.kind == HG_RV_LIST && (line || i == G_TAGS) && !ms.m[i].present) {
			ms.m[i].present = 1;
			ms.m[i].kind = HG_RV_LIST;
			if (line)
				read_line(r, src, line, i == G_MOVES ? LINE_MOVES : LINE_COMMENTS, 0);
			else
				read_tags(r, src);
		} else {
			if (line || i == G_TAGS)
				hg_record_mismatch(r, src, src->a_list, &m);
			take_member(r, src, &ms, &m);
		}
		hg_record_path_pop(r, mark);
	}
	if (!r->gave_up && !r->stopped) {
		check_members(r, &ms, game_keys);
		const member *result = &ms.m[G_RESULT];
		if (result->present) {
			g->result_pos = model_pos(r, result->pos);
			/* a null (JSON null; YAML null, ~ or nothing) is no result */
			int null = result->kind == HG_RV_SCALAR && result->plain &&
				   hg_ycore_null(member_text(&ms, G_RESULT));
			const char *s = null ? NULL : get_string(r, src, &ms, G_RESULT, 1);
			if (s)
				g->result = hg_try_strdup(s);	/* (NULL: the unit fails) */
		}
	}
	members_free(&ms);
	r->g = NULL;
	if (r->stopped) {
		/* the input cannot be read on: the game is not a game */
		hg_record_free(g);
		return NULL;
	}
	return g;
}

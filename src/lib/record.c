/* record.c - the game-independent record model. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atok.h"

hg_game_record *hg_record_try_new(const char *file)
{
	hg_record_impl *r = hg_try_calloc(1, sizeof *r);
	if (!r)
		return NULL;
	hg_game_record *g = &r->pub;
	g->file = hg_try_strdup(file ? file : "-");
	if (!g->file) {
		free(r);
		return NULL;
	}
	g->pos.file = g->file;
	g->pos.line = 1;
	g->pos.col = 1;
	return g;
}

/* The public functions below are each a unit of work of their own
 * (internal.h, HG_OWN_UNIT): NULL or HG_ENOMEM wherever they are called,
 * and inside a call that reports allocation failure, that call's too. */
hg_game_record *hg_record_new(const char *file)
{
	hg_game_record *g;
	HG_OWN_UNIT(g = hg_record_try_new(file));
	return g;
}

char *hg_record_strndup(hg_game_record *g, const char *s, size_t n)
{
	hg_record_impl *r = hg_record_impl_of(g);
	if (!r->tags_in_arena)
		return hg_try_strndup(s, n);
	char *copy = n < (size_t)-1 ? hg_arena_try_alloc(r->arena, n + 1, 1) : NULL;
	if (!copy) {
		hg_alloc_failure();
		return NULL;
	}
	memcpy(copy, s, n);
	copy[n] = '\0';
	return copy;
}

void hg_record_str_drop(const hg_game_record *g, char *s)
{
	if (!s)
		return;
	if (!hg_record_impl_of_const(g)->tags_in_arena)	/* (an arena's copy goes
							   with the arena) */
		free(s);
}

/* Marks the actions whose parts are in their record's arena: an address
 * that is no malloc'd block. */
static struct hg_action_owner {
	char unused;
} in_arena;

struct hg_action_owner *hg_action_owner_arena(void)
{
	return &in_arena;
}

void hg_action_text_free(hg_action_text *t)
{
	if (t->owner == &in_arena) {
		/* the record's arena frees it */
	} else if (t->owner) {
		free(t->owner);	/* the one block */
	} else {
		free(t->seat);
		for (size_t i = 0; i < t->ntoks; i++)
			free(t->toks[i].text);
		free(t->toks);
		free(t->text);
	}
	memset(t, 0, sizeof *t);
}

hg_pos hg_action_text_pos(const hg_action_text *t, size_t off)
{
	if (t->ntoks == 0)
		return t->pos;
	size_t i = 0;
	while (i + 1 < t->ntoks && t->toks[i + 1].off <= off)
		i++;
	return t->toks[i].pos;
}

static void node_free(hg_node *n)
{
	/* an action in the record's arena goes with the arena (and the node
	 * with its line: it is not cleared) */
	if (n->action.owner != &in_arena)
		hg_action_text_free(&n->action);
	if (n->glyph)
		free(n->glyph);
	if (n->comment)
		free(n->comment);
	if (n->variation) {
		hg_line_free(n->variation);
		free(n->variation);
	}
}

void hg_line_free(hg_line *l)
{
	for (size_t i = 0; i < l->n; i++)
		node_free(&l->nodes[i]);
	free(l->nodes);
	memset(l, 0, sizeof *l);
}

hg_line *hg_line_new(void)
{
	return hg_open_calloc(1, sizeof(hg_line));
}

hg_line *hg_line_try_new(void)
{
	return hg_try_calloc(1, sizeof(hg_line));
}

hg_node *hg_line_try_push(hg_line *l, hg_node_kind kind, hg_pos pos)
{
	/* each new node starts as a copy of this one */
	static const hg_node zero;
	if (l->n == l->cap) {
		/* From one node, doubling: most variations hold one or two
		 * nodes, and a record may hold a great many of them. */
		size_t cap = l->cap ? 2 * l->cap : 1;
		hg_node *nodes = cap <= ((size_t)-1) / sizeof *l->nodes ?
			hg_try_realloc(l->nodes, cap * sizeof *l->nodes) : NULL;
		if (!nodes) {
			hg_alloc_failure();
			return NULL;
		}
		l->nodes = nodes;
		l->cap = cap;
	}
	hg_node *n = &l->nodes[l->n++];
	*n = zero;
	n->kind = kind;
	n->pos = pos;
	return n;
}

hg_node *hg_line_push(hg_line *l, hg_node_kind kind, hg_pos pos)
{
	hg_node *n;
	HG_OWN_UNIT(n = hg_line_try_push(l, kind, pos));
	return n;
}

void hg_record_free(hg_game_record *g)
{
	if (!g)
		return;
	hg_line_free(&g->header);
	for (size_t i = 0; i < g->ntags; i++) {
		hg_record_str_drop(g, g->tags[i].name);
		hg_record_str_drop(g, g->tags[i].value);
	}
	free(g->tags);
	hg_line_free(&g->moves);
	free(g->result);
	hg_line_free(&g->trailer);
	free(g->file);
	hg_arena_free(hg_record_impl_of(g)->arena);
	free(g);
}

const hg_tag *hg_record_tag(const hg_game_record *g, const char *name)
{
	/* A game's tag names mostly differ in their first letter (Game,
	 * Date, Players, Result, Seed): compared first, it spares most calls
	 * to strcmp, of which a game's checking makes dozens. */
	for (size_t i = 0; i < g->ntags; i++)
		if (g->tags[i].name[0] == name[0] && strcmp(g->tags[i].name, name) == 0)
			return &g->tags[i];
	return NULL;
}

const char *hg_record_tag_value(const hg_game_record *g, const char *name)
{
	const hg_tag *t = hg_record_tag(g, name);
	return t ? t->value : NULL;
}

int hg_tag_name_ok(const char *name, size_t n)
{
	const unsigned char *t = (const unsigned char *)name, *r = t + n;
	if (n == 0 || !((*t | 0x20) >= 'a' && (*t | 0x20) <= 'z'))
		return 0;
	for (t++; t < r; t++)
		if (!((*t | 0x20) >= 'a' && (*t | 0x20) <= 'z') && !(*t >= '0' && *t <= '9') &&
		    *t != '_')
			return 0;
	return 1;
}

int hg_record_try_set_tag(hg_game_record *g, const char *name, const char *value)
{
	char *v = hg_record_strndup(g, value, strlen(value));
	if (!v)
		return -1;
	for (size_t i = 0; i < g->ntags; i++)
		if (strcmp(g->tags[i].name, name) == 0) {
			hg_record_str_drop(g, g->tags[i].value);
			g->tags[i].value = v;
			return 0;
		}
	char *n = hg_record_strndup(g, name, strlen(name));
	if (!n || HG_TRY_GROW(g->tags, g->captags, g->ntags + 1) != 0) {
		hg_record_str_drop(g, n);
		hg_record_str_drop(g, v);
		return -1;
	}
	hg_tag *t = &g->tags[g->ntags++];
	t->name = n;
	t->value = v;
	t->pos = g->pos;
	return 0;
}

int hg_record_set_tag(hg_game_record *g, const char *name, const char *value)
{
	int rc;
	HG_OWN_UNIT(rc = hg_record_try_set_tag(g, name, value));
	return rc == 0 ? 0 : HG_ENOMEM;
}

void hg_record_remove_tag(hg_game_record *g, const char *name)
{
	for (size_t i = 0; i < g->ntags; i++)
		if (strcmp(g->tags[i].name, name) == 0) {
			hg_record_str_drop(g, g->tags[i].name);
			hg_record_str_drop(g, g->tags[i].value);
			memmove(&g->tags[i], &g->tags[i + 1], (g->ntags - i - 1) * sizeof *g->tags);
			g->ntags--;
			return;
		}
}

static char *trimmed(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return hg_try_strndup(s, n);
}

/* Appends a name to v (NULL when the name is: its allocation failed):
 * 0, or -1 with v as it was and the name freed. */
static int players_push(char ***v, size_t *n, char *name)
{
	char **w = name ? hg_try_realloc(*v, (*n + 1) * sizeof **v) : NULL;
	if (!w) {
		free(name);
		return -1;
	}
	*v = w;
	w[(*n)++] = name;
	return 0;
}

static int record_players(const hg_game_record *g, char ***names, size_t *count)
{
	char **v = NULL;
	size_t n = 0;
	int rc = 0;
	const char *players = hg_record_tag_value(g, "Players");
	if (players) {
		const char *s = players;
		for (;;) {
			const char *semi = strchr(s, ';');
			size_t len = semi ? (size_t)(semi - s) : strlen(s);
			if ((rc = players_push(&v, &n, trimmed(s, len))) != 0 || !semi)
				break;
			s = semi + 1;
		}
		if (rc == 0 && n == 1 && v[0][0] == '\0') {
			hg_strv_free(v, n);
			v = NULL;
			n = 0;
		}
	} else {
		char name[32];
		for (unsigned i = 1;; i++) {
			snprintf(name, sizeof name, "Seat%u", i);
			const char *val = hg_record_tag_value(g, name);
			if (!val || (rc = players_push(&v, &n, hg_try_strdup(val))) != 0)
				break;
		}
	}
	if (rc != 0) {
		hg_strv_free(v, n);
		v = NULL;
		n = 0;
	}
	*names = v;
	*count = n;
	return rc;
}

size_t hg_record_players(const hg_game_record *g, char ***names)
{
	size_t n;
	int rc;
	HG_OWN_UNIT(rc = record_players(g, names, &n));
	(void)rc;	/* (0 and no names: hg_record_nplayers tells) */
	return n;
}

size_t hg_record_nplayers(const hg_game_record *g)
{
	const char *players = hg_record_tag_value(g, "Players");
	if (players) {
		size_t n = 1;
		for (const char *s = players; (s = strchr(s, ';')) != NULL; s++)
			n++;
		/* one name, and that empty: nobody (as hg_record_players) */
		if (n == 1 && players[strspn(players, " \t")] == '\0')
			return 0;
		return n;
	}
	size_t n = 0;
	for (;;) {
		char name[32];
		snprintf(name, sizeof name, "Seat%zu", n + 1);
		if (!hg_record_tag_value(g, name))
			return n;
		n++;
	}
}

int hg_action_list_push(hg_action_list *l, hg_action *a)
{
	int rc;
	HG_OWN_UNIT(rc = HG_TRY_GROW(l->v, l->cap, l->n + 1));
	if (rc != 0)
		return HG_ENOMEM;
	l->v[l->n++] = a;
	return 0;
}

/* One allocation per action instead of one per token: the block holds the
 * tokens, then the joined text, then the same bytes again with each
 * separating space turned into a NUL (a token never holds a space, so
 * these are the tokens' own texts), then the seat. */
int hg_action_text_make(hg_action_text *t, const char *seat, size_t seat_len,
			hg_pos seat_pos, const hg_atok_list *l)
{
	size_t ntoks = l->n - l->first, tl = l->text.len - l->text0, sl = seat_len;
	size_t tokbytes = ntoks * sizeof *l->v;
	size_t size = tokbytes + 2 * (tl + 1) + sl + 1;
	char *block = hg_try_malloc(size);
	if (!block) {
		memset(t, 0, sizeof *t);
		return -1;
	}
	hg_atok *toks = (hg_atok *)(void *)block;
	char *text = block + tokbytes;
	char *strs = text + tl + 1;
	char *seat_copy = strs + tl + 1;
	if (tokbytes)
		memcpy(toks, l->v + l->first, tokbytes);
	if (tl) {
		memcpy(text, l->text.data + l->text0, tl);
		memcpy(strs, l->split + l->text0, tl);
	}
	text[tl] = strs[tl] = '\0';
	for (size_t i = 0; i < ntoks; i++)
		toks[i].text = strs + toks[i].off;
	memcpy(seat_copy, seat, sl);
	seat_copy[sl] = '\0';
	memset(t, 0, sizeof *t);
	hg_action_text_own_block(t, block);
	t->seat = seat_copy;
	t->seat_len = sl;
	t->seat_pos = seat_pos;
	t->toks = ntoks ? toks : NULL;
	t->ntoks = ntoks;
	t->text = text;
	t->len = tl;
	t->ascii = !l->not_ascii;	/* plain-path tokens are ASCII */
	t->pos = ntoks ? toks[0].pos : seat_pos;
	return 0;
}

int hg_action_text_spells(const hg_action_text *t, const char *seat, size_t seat_len,
			  const char *body, size_t body_len)
{
	if (body_len == 0 || !t->seat || t->seat_len != seat_len ||
	    memcmp(t->seat, seat, seat_len) != 0)
		return 0;	/* (an empty body is hg_action_text_set's to refuse) */
	if (t->text && *t->text)
		return t->len == body_len && memcmp(t->text, body, body_len) == 0;
	/* no joined text: the tokens, as the writer joins them */
	size_t at = 0;
	for (size_t i = 0; i < t->ntoks; i++) {
		size_t n = strlen(t->toks[i].text);
		if (i > 0 && (at >= body_len || body[at++] != ' '))
			return 0;
		if (n > body_len - at || memcmp(body + at, t->toks[i].text, n) != 0)
			return 0;
		at += n;
	}
	return at == body_len;
}

int hg_action_text_is_ascii(const hg_action_text *t)
{
	/* Known while the tokens were cut, nearly always; else looked at. */
	return t->ascii || !t->text || hg_is_ascii(t->text, t->len);
}

/* Cuts "seat: body" with the lexer itself, so that what it accepts is what
 * the writer's output will lex back to. */
static int action_text_set(hg_action_text *t, const char *seat, const char *body,
			   hg_pos pos, hg_diags *d)
{
	memset(t, 0, sizeof *t);
	hg_diags local;
	hg_diags_init(&local);
	if (!d)
		d = &local;
	hg_buf src;
	hg_buf_init(&src);
	hg_atok_list toks;
	memset(&toks, 0, sizeof toks);
	hg_buf_printf(&src, "%s: %s", seat, body);
	hg_lexer *lx = hg_buf_failed(&src) ? NULL : hg_lexer_open_mem(pos.file, src.data, src.len);
	if (!lx) {
		hg_buf_free(&src);
		return HG_ENOMEM;
	}
	hg_lexer_set_origin(lx, pos);
	hg_lexer_set_diags(lx, d);
	size_t before = d->nerrors;
	int rc = 0;

	const hg_token *tk = hg_lexer_next(lx);
	if (tk->kind != HG_TK_SEAT || tk->bad || strcmp(tk->text, seat) != 0) {
		hg_diag *dg = hg_lexer_error(lx, pos, "hgn.bad-seat",
					     "'%s' is not a seat name", seat);
		if (dg)
			hg_diag_note(dg, "a seat is one word (letters, digits, _ - ' . #) written before ':'");
		rc = -1;
		goto done;
	}
	hg_pos seat_pos = tk->pos;
	seat_pos.file = pos.file;
	for (tk = hg_lexer_next(lx); tk->kind != HG_TK_EOF; tk = hg_lexer_next(lx)) {
		if (!hg_lexer_is_body(tk->kind) || tk->bad) {
			if (!tk->bad)
				hg_lexer_error(lx, tk->pos.line ? tk->pos : pos, "hgn.bad-action",
					       "%s '%s' cannot be part of an action's body",
					       hg_tk_name(tk->kind), tk->text);
			rc = -1;
			goto done;
		}
		hg_atok_list_push(&toks, tk, pos.file);
	}
	if (toks.n == 0) {
		hg_lexer_error(lx, pos, "hgn.empty-action",
			       "the action of '%s' has no body", seat);
		rc = -1;
		goto done;
	}
	if (d->nerrors == before &&
	    hg_action_text_make(t, seat, strlen(seat), seat_pos, &toks) != 0)
		rc = HG_ENOMEM;
done:
	if (d->nerrors != before && rc == 0)
		rc = -1;
	hg_lexer_close(lx);
	hg_buf_free(&src);
	hg_atok_list_free(&toks);
	hg_diags_free(&local);
	return rc;
}

/* A unit of work of its own: inside a caller's unit a failure is that
 * unit's too. */
int hg_action_text_set(hg_action_text *t, const char *seat, const char *body,
		       hg_pos pos, hg_diags *d)
{
	hg_alloc_unit u;
	size_t n0 = d ? d->n : 0;
	hg_alloc_unit_begin(&u);
	int rc = action_text_set(t, seat, body, pos, d);
	if (hg_alloc_unit_end(&u, d, n0, pos) == HG_ENOMEM) {
		hg_action_text_free(t);
		rc = HG_ENOMEM;
	}
	return rc;
}

/* parser.c - the HGN parser (grammar/hgn.ebnf, Parts 2 and 3), recursive
 * descent in the manner of Lua's lparser.c over the tokens of lexer.c.
 *
 * It reads one game per call and holds nothing of the games before, so a
 * file of any size parses in bounded memory.  After an error it skips the
 * rest of the action it was in and goes on at the next action, move number,
 * comment, NAG, parenthesis, termination or game: one run reports every
 * error.  A game's own diagnostics are reported by the call that returns
 * it, even those found while looking ahead past its end. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parser-impl.h"
#include "tags.h"
#include "tagset.h"

/* A game's main line is made room for at once, as long as the longest
 * one before it (up to this many elements): growing it element by
 * element copied it again at every doubling. */
#define MOVES_HINT_MAX 4096

static const hg_limits *limits(const hg_parser *p)
{
	return p->lim;
}

void hg_parser_clear_game(hg_parser *p)
{
	hg_bad_tags_clear(&p->bad_tags);
	hg_tagset_clear(&p->tagset);
	p->tags_over = 0;
	p->nopen = 0;
	p->actions = 0;
	p->elements = 0;
	p->stop = 0;
	p->after_glyph = 0;
	p->seat = NULL;
	p->seat_len = 0;
	hg_atok_list_clear(&p->toks);
}

/* ------------------------------------------------------------------------
 * Tokens and errors (parser-tokens.c)
 * ------------------------------------------------------------------------ */

/* Whether a batch of the scanner's is there to take from (read now if
 * need be). */
static int scanned(hg_parser *p)
{
	return p->bi < p->batch.n || hg_parser_scan(p);
}

/* A position inside the record: its file is the record's own copy. */
static hg_pos gpos(const hg_parser *p, hg_pos pos)
{
	pos.file = p->g->file;
	return pos;
}

/* A position in the record from a line and column the lexer gave. */
static hg_pos line_col(const hg_parser *p, unsigned line, unsigned col)
{
	hg_pos pos = { p->g->file, line, col };
	return pos;
}

/* p->last_end, at a line and column of the lexer's. */
static void set_last_end(hg_parser *p, unsigned line, unsigned col)
{
	p->last_end.file = p->name;
	p->last_end.line = line;
	p->last_end.col = col;
}

static int is_comment(const hg_token *t)
{
	return t->kind == HG_TK_COMMENT || t->kind == HG_TK_LINE_COMMENT;
}

/* Counts an element of the game other than an action or a tag pair (a
 * move number, comment, NAG or variation) against the limit: 0 once past
 * it, which is reported once, and the rest of the game is skipped.  Each
 * element costs a node, whatever few bytes it was written in. */
static int count_element(hg_parser *p, hg_pos pos)
{
	if (++p->elements <= limits(p)->elements)
		return 1;
	if (!p->stop) {
		hg_parser_error(p, pos, "hgn.too-many-elements",
				"more than %zu move numbers, comments, NAGs and variations in one game; "
				"skipping to the next game", limits(p)->elements);
		p->stop = 1;
	}
	return 0;
}

/* Without memory, an allocation fails the unit of work (util.c): the game
 * is abandoned, and hg_parser_next() returns HG_ENOMEM. */
static void no_memory(hg_parser *p)
{
	p->stop = 1;
}

static void push_comment(hg_parser *p, hg_line *line, const hg_token *t, const char *file)
{
	hg_pos pos = t->pos;
	pos.file = file;
	char *text = hg_try_strndup(t->text, t->len);
	hg_node *n = text ? hg_line_try_push(line, HG_NODE_COMMENT, pos) : NULL;
	if (!n) {
		free(text);
		no_memory(p);
		return;
	}
	n->comment = text;
	n->line_comment = t->kind == HG_TK_LINE_COMMENT;
}

/* Pushes a move number or NAG. */
static void push_number(hg_parser *p, hg_line *line, hg_node_kind kind, hg_pos pos,
			unsigned number)
{
	hg_node *n = hg_line_try_push(line, kind, pos);
	if (n)
		n->number = number;
	else
		no_memory(p);
}

/* Pushes the comment token and advances past it.  A comment that begins
 * its line, and after which the next token begins a line (or the text
 * ends), stands on lines of its own: a teacher's note between the moves,
 * which the canonical form keeps there (herald-notation(5), CANONICAL
 * FORM). */
static void take_comment(hg_parser *p, hg_line *line, int keep)
{
	int began = p->t->newline;
	size_t at = line->n;
	if (keep)
		push_comment(p, line, p->t, p->g->file);
	hg_parser_advance(p);
	if (keep && began && line->n > at && (p->t->newline || p->t->kind == HG_TK_EOF))
		line->nodes[at].own_line = 1;
}

/* Keeps a comment that precedes the next game's tags for that game. */
static void push_pending(hg_parser *p)
{
	if (p->pending.n == 0) {
		p->pending_off = p->t->off;
		p->pending_over = 0;
	}
	if (p->pending.n >= limits(p)->elements) {
		if (!p->pending_over)
			hg_parser_error(p, p->t->pos, "hgn.too-many-elements",
					"more than %zu comments before a game; the rest are not kept",
					limits(p)->elements);
		p->pending_over = 1;
		return;
	}
	push_comment(p, &p->pending, p->t, hg_lexer_name(p->lx));
}

/* Moves the comments of `from` to the end of `to`, re-pointed at `file`
 * (those there is no memory for are freed). */
static void move_comments(hg_parser *p, hg_line *to, hg_line *from, const char *file)
{
	for (size_t i = 0; i < from->n; i++) {
		hg_node *src = &from->nodes[i];
		hg_node *n = hg_line_try_push(to, HG_NODE_COMMENT, src->pos);
		if (!n) {
			no_memory(p);
			break;
		}
		n->pos.file = file;
		n->comment = src->comment;
		n->line_comment = src->line_comment;
		n->own_line = src->own_line;
		src->comment = NULL;
	}
	hg_line_free(from);
}

/* Skips the rest of a broken tag pair: up to its ']' (taken), the next
 * '[' on the line, or the line's end. */
static void skip_tag(hg_parser *p)
{
	while (!p->stop && !p->t->newline && p->t->kind != HG_TK_EOF &&
	       p->t->kind != HG_TK_LBRACKET) {
		hg_tk k = p->t->kind;
		hg_parser_advance(p);
		if (k == HG_TK_RBRACKET)
			return;
	}
}

/* ------------------------------------------------------------------------
 * The tag section (hgn.ebnf: header, tag pair; rules L3, T1 to T5)
 * ------------------------------------------------------------------------ */

static void store_tag(hg_parser *p, char *name, hg_pos name_pos, char *value,
		      hg_pos value_pos, int value_bad)
{
	hg_game_record *g = p->g;
	if (!name || !value) {
		hg_record_str_drop(g, name);
		hg_record_str_drop(g, value);
		no_memory(p);
		return;
	}
	size_t first = hg_tagset_find(&p->tagset, name);
	if (first != HG_TAGSET_NONE) {
		hg_diag *dg = hg_parser_error(p, name_pos, "hgn.duplicate-tag",
					      "duplicate tag '%s'", name);
		if (dg)
			hg_diag_note(dg, "'%s' was first given at line %u", name,
				     g->tags[first].pos.line);
		hg_record_str_drop(g, name);
		hg_record_str_drop(g, value);
		return;
	}
	if (g->ntags >= limits(p)->tags) {
		if (!p->tags_over) {
			hg_diag *dg = hg_parser_error(p, name_pos, "hgn.too-many-tags",
						      "more than %zu tag pairs in one game",
						      limits(p)->tags);
			if (dg)
				hg_diag_note(dg, "the game's tag pairs from here on are not read");
		}
		p->tags_over = 1;
		hg_record_str_drop(g, name);
		hg_record_str_drop(g, value);
		return;
	}
	if (HG_TRY_GROW(g->tags, g->captags, g->ntags + 1) != 0) {
		hg_record_str_drop(g, name);
		hg_record_str_drop(g, value);
		no_memory(p);
		return;
	}
	hg_tagset_add(&p->tagset, name, g->ntags);
	hg_tag *tag = &g->tags[g->ntags++];
	tag->name = name;
	tag->value = value;
	tag->pos = gpos(p, value_pos);
	if (value_bad)
		hg_bad_tags_add(&p->bad_tags, name);
	else if (strcmp(name, "Date") == 0)
		hg_tags_check_date(p->lx, tag);
	if (hg_lexer_game_abandoned(p->lx))
		p->stop = 1;
}

/* tag pair = "[", tag name, string, "]" on one line (rule L3). */
static void parse_tag(hg_parser *p)
{
	hg_buf what;
	hg_buf_init(&what);
	hg_parser_advance(p);
	if (p->t->kind != HG_TK_WORD || p->t->newline || !hg_tag_name_ok(p->t->text, p->t->len)) {
		int same_line = !p->t->newline && p->t->kind != HG_TK_EOF;
		if (same_line)
			hg_parser_describe(p->t, &what);
		hg_diag *dg = hg_parser_error(p, same_line ? p->t->pos : p->last_end, "hgn.bad-tag",
					      "expected a tag name after '[' but found %s",
					      same_line ? what.data : _("the end of the line"));
		if (dg)
			hg_diag_note(dg, "a tag pair is '[', a name, a string and ']' on one line, as in [Date \"2026.11.21\"]");
		skip_tag(p);
		hg_buf_free(&what);
		return;
	}
	char *name = hg_record_strndup(p->g, p->t->text, p->t->len);
	if (!name) {
		no_memory(p);
		hg_buf_free(&what);
		return;
	}
	hg_pos name_pos = p->t->pos;
	hg_parser_advance(p);
	if (p->t->kind != HG_TK_STRING || p->t->newline) {
		int same_line = !p->t->newline && p->t->kind != HG_TK_EOF;
		if (same_line)
			hg_parser_describe(p->t, &what);
		hg_diag *dg = hg_parser_error(p, same_line ? p->t->pos : p->last_end, "hgn.bad-tag",
					      "tag '%s' has no value: expected a string but found %s", name,
					      same_line ? what.data : _("the end of the line"));
		if (dg)
			hg_diag_note(dg, "a tag's value is a string in double quotes, as in [%s \"...\"]", name);
		hg_bad_tags_add(&p->bad_tags, name);
		hg_record_str_drop(p->g, name);
		skip_tag(p);
		hg_buf_free(&what);
		return;
	}
	char *value = hg_record_strndup(p->g, p->t->text, p->t->len);
	hg_pos value_pos = p->t->pos;
	int value_bad = p->t->bad;
	hg_parser_advance(p);
	if (p->t->kind != HG_TK_RBRACKET || p->t->newline) {
		if (!value_bad)	/* an open string already said so */
			hg_parser_error(p, p->last_end, "hgn.bad-tag",
					"tag '%s' is not closed: expected ']'", name);
		skip_tag(p);
	} else {
		hg_parser_advance(p);
	}
	store_tag(p, name, name_pos, value, value_pos, value_bad);
	hg_buf_free(&what);
}

/* header = {comment | tag pair}.  Comments before or between the tag pairs
 * are the header's; comments after the last tag pair open the move text
 * (so that fmt keeps them just before the moves). */
static void parse_header(hg_parser *p)
{
	hg_game_record *g = p->g;
	hg_line after;		/* comments since the last tag pair */
	memset(&after, 0, sizeof after);
	while (!p->stop) {
		if (is_comment(p->t)) {
			take_comment(p, &after, count_element(p, p->t->pos));
		} else if (p->t->kind == HG_TK_LBRACKET) {
			for (size_t i = 0; i < after.n; i++)
				after.nodes[i].own_line = 0;
			move_comments(p, &g->header, &after, g->file);
			parse_tag(p);
		} else {
			break;
		}
	}
	if (!(g->ntags || p->bad_tags.n))
		for (size_t i = 0; i < after.n; i++)
			after.nodes[i].own_line = 0;	/* the header's: always on their own lines */
	move_comments(p, g->ntags || p->bad_tags.n ? &g->moves : &g->header, &after, g->file);
}

/* ------------------------------------------------------------------------
 * The move text (hgn.ebnf: move text, element, action, variation)
 * ------------------------------------------------------------------------ */

static void parse_moves(hg_parser *p, hg_line *line, size_t depth);

/* Skips what is left of a broken action: body tokens, glyphs, colons. */
static void resync(hg_parser *p)
{
	while (!p->stop && (hg_lexer_is_body(p->t->kind) || p->t->kind == HG_TK_GLYPH ||
			    p->t->kind == HG_TK_COLON))
		hg_parser_advance(p);
}

/* The seat of the action being read: the actions of one run share one
 * copy of its name. */
static void set_seat(hg_parser *p, const char *text, size_t len)
{
	/* a seat is a short word: compared here, not by a call to memcmp */
	size_t same = 0;
	if (p->seat && p->seat_len == len)
		while (same < len && p->seat[same] == text[same])
			same++;
	if (!p->seat || p->seat_len != len || same != len) {
		char *copy = hg_arena_try_alloc(hg_record_impl_of(p->g)->arena, len + 1, 1);
		if (!copy) {
			no_memory(p);
			p->seat = "";
			p->seat_len = 0;
			return;
		}
		memcpy(copy, text, len);
		copy[len] = '\0';
		p->seat = copy;
		p->seat_len = len;
	}
}

/* Makes node n the action just gathered, of the current seat (at
 * seat_pos). */
static void action_gathered(hg_parser *p, hg_node *n, hg_pos seat_pos)
{
	hg_atok_list *l = &p->toks;
	hg_action_text *t = &n->action;
	t->seat = (char *)p->seat;
	t->seat_len = p->seat_len;
	t->seat_pos = seat_pos;
	t->ntoks = l->n - l->first;
	t->len = l->text.len - l->text0;
	t->ascii = !l->not_ascii;	/* scanned tokens are ASCII */
	t->pos = t->ntoks ? l->v[l->first].pos : seat_pos;
	hg_action_text_in_arena(t);
	p->toks_used += t->ntoks;
	p->text_used += t->len + 1;
	if (hg_atok_list_keep(l, &t->toks, &t->text) != 0) {
		t->ntoks = t->len = 0;
		t->toks = NULL;
		t->text = (char *)"";
		no_memory(p);
	}
}

/* The room a game's tokens get at first: the last game's, and half as much
 * again, at least this and at most the second (a larger game grows its
 * room: memory follows the games' size). */
#define TOKS_ROOM_MIN 64u
#define TOKS_ROOM_MAX (1u << 16)
#define TOKS_TEXT_ROOM_MIN 1024u
#define TOKS_TEXT_ROOM_MAX (1u << 20)

static size_t room_for(size_t used, size_t min, size_t max)
{
	size_t want = used + used / 2;
	return want < min ? min : want > max ? max : want;
}

/* Gathers the game's action tokens and texts into the record's arena,
 * where they stay (no copy when the game ends). */
static void actions_start(hg_parser *p, hg_game_record *g)
{
	hg_record_impl *r = hg_record_impl_of(g);
	r->arena = hg_arena_try_new();
	if (!r->arena ||
	    hg_atok_list_attach(&p->toks, r->arena,
				room_for(p->toks_used, TOKS_ROOM_MIN, TOKS_ROOM_MAX),
				room_for(p->text_used, TOKS_TEXT_ROOM_MIN, TOKS_TEXT_ROOM_MAX)) != 0)
		no_memory(p);
	p->toks_used = p->text_used = 0;
}

/* The body of an action whose seat prefix (at seat_pos) is read, and its
 * glyph.  The body is gathered into the game's token list, made into the
 * record when the game ends.  Returns 1 when it took the scanned seat
 * prefix that comes next (*next, in the batch: valid until the scanner
 * reads again; p->t is NULL until the next body is read), so the next
 * action's body follows at once. */
static int parse_body(hg_parser *p, hg_line *line, hg_pos seat_pos, int bad,
		      const hg_scan_token **next)
{
	const char *seat = p->seat;
	int taken = 0;
	/* a scanned move number after the body: pushed after the action */
	const hg_scan_token *number = NULL;
	hg_atok_list_restart(&p->toks);
	/* The scanner's tokens are put in bulk, the rest one by one. */
	for (;;) {
		if (scanned(p)) {
			size_t i = hg_atok_list_push_scanned(&p->toks, &p->batch, p->bi,
							     p->g->file);
			if (i == p->bi && scanned_body(&p->batch.v[i]))
				no_memory(p);	/* none put: advance() takes the token */
			else if (i > p->bi) {
				const hg_scan_token *last = &p->batch.v[i - 1];
				p->bi = i;
				p->t = NULL;
				/* A move number or a seat prefix next: this action
				 * ends well (its body is not empty, it has no
				 * glyph, reading it said nothing), so what follows
				 * is taken as it is. */
				int ends_well = !bad && !p->stop && p->actions < limits(p)->actions;
				if (ends_well && p->bi < p->batch.n &&
				    p->batch.v[p->bi].kind == HG_TK_MOVENUM)
					number = last = &p->batch.v[p->bi++];
				if (ends_well && p->bi < p->batch.n &&
				    p->batch.v[p->bi].kind == HG_TK_SEAT) {
					*next = last = &p->batch.v[p->bi++];
					taken = 1;
				}
				set_last_end(p, last->line, last->end_col);
				p->off_after = hg_scan_end_off(&p->batch, last);
				if (number || taken)
					break;
				if (p->bi == p->batch.n)
					continue;
			}
		}
		hg_parser_advance(p);
		if (p->stop || !hg_lexer_is_body(p->t->kind))
			break;
		bad |= p->t->bad;
		hg_atok_list_push(&p->toks, p->t, p->g->file);
	}
	const char *glyph = NULL;
	if (p->t && !p->stop && p->t->kind == HG_TK_GLYPH) {
		bad |= p->t->bad;
		glyph = p->t->text;	/* valid until the next advance() */
	}
	p->after_glyph = glyph != NULL;
	if (p->toks.n == p->toks.first && !bad && !p->stop) {
		hg_diag *dg = hg_parser_error(p, seat_pos, "hgn.empty-action",
					      "the action of '%s' has no body", seat);
		if (dg)
			hg_diag_note(dg, "an action is a seat, ':' and what the seat does, as in 'P1: draw c12'");
		bad = 1;
	}
	if (!bad && !p->stop && ++p->actions > limits(p)->actions) {
		hg_parser_error(p, seat_pos, "hgn.too-many-actions",
				"more than %zu actions in one game; skipping to the next game",
				limits(p)->actions);
		p->stop = 1;
	}
	if (!bad && !p->stop) {
		char *glyph_copy = glyph ? hg_try_strdup(glyph) : NULL;
		hg_node *n = glyph && !glyph_copy ? NULL :
			hg_line_try_push(line, HG_NODE_ACTION, seat_pos);
		if (n) {
			action_gathered(p, n, seat_pos);
			n->glyph = glyph_copy;
		} else {
			free(glyph_copy);
			no_memory(p);
		}
	}
	if (glyph)
		hg_parser_advance(p);
	if (number) {
		/* as parse_moves() takes a move number */
		hg_pos at = line_col(p, number->line, number->col);
		if (count_element(p, at))
			push_number(p, line, HG_NODE_MOVENUM, at, number->value);
		p->after_glyph = 0;
		if (!taken)
			hg_parser_advance(p);
	}
	return taken;
}

/* action = seat prefix, body, [glyph].  A run of actions, each seat
 * prefix scanned right after the body before it, is read here in one
 * go. */
static void parse_action(hg_parser *p, hg_line *line)
{
	hg_pos seat_pos = gpos(p, p->t->pos);
	set_seat(p, p->t->text, p->t->len);
	const hg_scan_token *next = NULL;
	int bad = p->t->bad;
	while (parse_body(p, line, seat_pos, bad, &next)) {
		seat_pos = line_col(p, next->line, next->col);
		set_seat(p, next->text, next->len);
		bad = 0;
	}
}

/* variation = "(", {element}, ")"; nested at most limits()->nesting deep. */
static void parse_variation(hg_parser *p, hg_line *line, size_t depth)
{
	hg_pos pos = p->t->pos;
	if (depth + 1 > limits(p)->nesting) {
		hg_parser_error(p, pos, "hgn.too-deep", "variations nested more than %zu deep",
				limits(p)->nesting);
		/* Skip to the matching ')' without building anything. */
		size_t level = 1;
		hg_parser_advance(p);
		while (level > 0 && !p->stop) {
			hg_tk k = p->t->kind;
			if (k == HG_TK_EOF || k == HG_TK_STAR || k == HG_TK_STRING ||
			    (k == HG_TK_LBRACKET && p->t->newline))
				return;
			if (k == HG_TK_LPAREN)
				level++;
			else if (k == HG_TK_RPAREN)
				level--;
			hg_parser_advance(p);
		}
		return;
	}
	if (!count_element(p, pos))
		return;
	size_t idx = line->n;
	hg_line *variation = hg_line_try_new();
	hg_node *n = variation ? hg_line_try_push(line, HG_NODE_VARIATION, gpos(p, pos)) : NULL;
	if (!n || HG_TRY_GROW(p->open, p->capopen, p->nopen + 1) != 0) {
		if (n)
			n->variation = variation;	/* freed with the line */
		else
			free(variation);
		no_memory(p);
		return;
	}
	n->variation = variation;
	p->open[p->nopen++] = pos;
	p->after_glyph = 0;
	hg_parser_advance(p);
	parse_moves(p, line->nodes[idx].variation, depth + 1);
	if (!p->stop && p->t->kind == HG_TK_RPAREN) {
		p->nopen--;
		p->after_glyph = 0;
		hg_parser_advance(p);
	}
}

static void missing_seat(hg_parser *p)
{
	hg_buf what;
	hg_buf_init(&what);
	hg_parser_describe(p->t, &what);
	hg_diag *dg = hg_parser_error(p, p->t->pos, "hgn.missing-seat",
				      "%s is outside any action: expected a seat prefix such as 'P1:' before it",
				      what.data);
	if (dg && p->after_glyph)
		hg_diag_note(dg, "the annotation glyph ended the action of '%s'; a glyph is written after the action's last token",
			     p->seat ? p->seat : "");
	hg_buf_free(&what);
	resync(p);
}

static void parse_moves(hg_parser *p, hg_line *line, size_t depth)
{
	while (!p->stop) {
		const hg_token *t = p->t;
		switch (t->kind) {
		case HG_TK_MOVENUM:
			if (!t->bad && count_element(p, t->pos))
				push_number(p, line, HG_NODE_MOVENUM, gpos(p, t->pos),
					    (unsigned)t->value);
			p->after_glyph = 0;
			hg_parser_advance(p);
			break;
		case HG_TK_SEAT:
			parse_action(p, line);
			break;
		case HG_TK_COMMENT:
		case HG_TK_LINE_COMMENT:
			p->after_glyph = 0;
			take_comment(p, line, count_element(p, t->pos));
			break;
		case HG_TK_NAG:
			if (count_element(p, t->pos))
				push_number(p, line, HG_NODE_NAG, gpos(p, t->pos),
					    (unsigned)t->value);
			p->after_glyph = 0;
			hg_parser_advance(p);
			break;
		case HG_TK_LPAREN:
			parse_variation(p, line, depth);
			break;
		case HG_TK_RPAREN:
			if (depth > 0)
				return;
			hg_parser_error(p, t->pos, "hgn.unbalanced-paren",
					"')' without a matching '('");
			hg_parser_advance(p);
			break;
		case HG_TK_STAR:
		case HG_TK_STRING:
		case HG_TK_EOF:
			return;
		case HG_TK_LBRACKET:
			if (t->newline)
				return;	/* the next game (rule L4) */
			{
				hg_diag *dg = hg_parser_error(p, t->pos, "hgn.unexpected-token",
							      "'[' in the move text");
				if (dg)
					hg_diag_note(dg, "tag pairs come before the move text; a '[' that begins a line begins the next game");
			}
			hg_parser_advance(p);
			while (!p->stop && !p->t->newline && p->t->kind != HG_TK_EOF &&
			       p->t->kind != HG_TK_RBRACKET)
				hg_parser_advance(p);
			if (!p->stop && p->t->kind == HG_TK_RBRACKET && !p->t->newline)
				hg_parser_advance(p);
			break;
		case HG_TK_RBRACKET:
			hg_parser_error(p, t->pos, "hgn.unexpected-token", "']' in the move text");
			hg_parser_advance(p);
			break;
		case HG_TK_COLON: {
			hg_diag *dg = hg_parser_error(p, t->pos, "hgn.stray-colon",
						      "':' does not follow a seat");
			if (dg)
				hg_diag_note(dg, "an action begins with its seat written right before ':', as in 'P1: draw c12'");
			hg_parser_advance(p);
			resync(p);
			break;
		}
		default:
			missing_seat(p);
			break;
		}
	}
}

/* ------------------------------------------------------------------------
 * The end of a game (hgn.ebnf: termination, trailer; rules L2, R5)
 * ------------------------------------------------------------------------ */

static char *trimmed(const char *s)
{
	size_t n = strlen(s);
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return hg_try_strndup(s, n);
}

/* Takes the termination marker and checks it against the Result tag. */
static void termination(hg_parser *p)
{
	hg_game_record *g = p->g;
	const hg_token *t = p->t;
	g->result = t->kind == HG_TK_STAR ? hg_try_strdup("*") : hg_try_strndup(t->text, t->len);
	g->result_pos = gpos(p, t->pos);
	const hg_tag *tag = hg_record_tag(g, "Result");
	if (!g->result || !tag || t->bad || hg_bad_tags_has(&p->bad_tags, "Result"))
		return;
	char *a = trimmed(g->result), *b = trimmed(tag->value);
	if (!a || !b) {
		/* (the unit of work fails) */
	} else if (strcmp(a, b) != 0) {
		hg_diag *dg = hg_parser_error(p, t->pos, "hgn.result-mismatch",
					      "termination marker '%s' does not match the Result tag '%s'",
					      g->result, tag->value);
		if (dg) {
			hg_diag_note(dg, "the Result tag is at line %u", tag->pos.line);
			if (strcmp(a, "*") == 0)
				hg_diag_note(dg, "'*' marks an unfinished game and goes with [Result \"*\"]");
		}
	}
	free(a);
	free(b);
}

/* After an abandoned game: on to the next '[' that begins a line. */
static void skip_to_next_game(hg_parser *p)
{
	if (!(p->t->kind == HG_TK_LBRACKET && p->t->newline) && p->t->kind != HG_TK_EOF) {
		hg_parser_skip_game(p);
		hg_parser_advance(p);
	}
	p->glued = 0;
}

/* After the termination marker: the trailer (comments before the first
 * blank line), then, looking ahead, the next game's header comments. */
static void after_termination(hg_parser *p)
{
	hg_game_record *g = p->g;
	hg_lexer_set_diags(p->lx, &p->held);
	/* What follows the marker counts against the next game's limits. */
	hg_lexer_begin_game(p->lx);
	p->begun = 1;
	hg_parser_advance(p);
	int blank_seen = 0;
	for (;;) {
		if (p->t->blank_line)
			blank_seen = 1;
		if (!is_comment(p->t) || blank_seen || hg_lexer_game_abandoned(p->lx))
			break;
		hg_diags_move(p->d, &p->held);
		if (count_element(p, p->t->pos))
			push_comment(p, &g->trailer, p->t, g->file);
		hg_parser_advance(p);
	}
	while (is_comment(p->t) && !hg_lexer_game_abandoned(p->lx)) {
		push_pending(p);
		hg_parser_advance(p);
	}
	if (hg_lexer_game_abandoned(p->lx)) {
		/* The comments after this game run past the game limit. */
		hg_line_free(&p->pending);
		skip_to_next_game(p);
		p->begun = 0;
		return;
	}
	switch (p->t->kind) {
	case HG_TK_EOF:
		hg_diags_move(p->d, &p->held);
		move_comments(p, &g->trailer, &p->pending, g->file);
		break;
	case HG_TK_LBRACKET:
		p->glued = !blank_seen;
		break;
	default:
		if (blank_seen)
			break;	/* a game without tags */
		hg_diags_move(p->d, &p->held);
		hg_lexer_set_diags(p->lx, p->d);
		hg_diag *dg = hg_parser_error(p, p->t->pos, "hgn.after-termination",
					      "move text after the termination marker");
		if (dg)
			hg_diag_note(dg, "a game ends with its termination marker; the next game begins with '[' after a blank line");
		hg_lexer_set_diags(p->lx, &p->held);
		hg_parser_skip_game(p);
		p->begun = 0;
		hg_parser_advance(p);
		p->glued = 0;
		break;
	}
	p->stop = 0;
}

/* ------------------------------------------------------------------------
 * A whole game
 * ------------------------------------------------------------------------ */

static void parse_game(hg_parser *p)
{
	hg_game_record *g = p->g;
	if (p->glued) {
		/* Files joined with cat glue games so.  The '[' begins the next
		 * game all the same, and each game is judged on its own bytes
		 * alone: a warning, so that the verdicts are the same whether
		 * the games are checked together or split apart. */
		hg_diag *dg = hg_lexer_warning(p->lx, p->t->pos, "hgn.glued-game",
					       p->t->newline ?
					       "a new game begins without a blank line after the previous one" :
					       "a new game begins on the line where the previous one ends");
		if (dg)
			hg_diag_note(dg, "games are separated by a blank line; this one is read as a new game");
		p->glued = 0;
	}
	parse_header(p);
	if (!p->stop) {
		hg_tags_check_section(p->lx, g, &p->tagset, &p->bad_tags, p->tags_over);
		if (hg_lexer_game_abandoned(p->lx))
			p->stop = 1;
	}
	if (p->moves_hint && HG_TRY_GROW(g->moves.nodes, g->moves.cap, p->moves_hint) != 0)
		no_memory(p);
	parse_moves(p, &g->moves, 0);
	if (g->moves.n > p->moves_hint)
		p->moves_hint = g->moves.n < MOVES_HINT_MAX ? g->moves.n : MOVES_HINT_MAX;
	if (p->stop) {
		skip_to_next_game(p);
		return;
	}
	for (size_t i = 0; i < p->nopen; i++) {
		hg_diag *dg = hg_parser_error(p, p->open[i], "hgn.unterminated-variation",
					      "variation not closed: '(' without ')'");
		if (dg)
			hg_diag_note(dg, "the game ends at %s", p->t->kind == HG_TK_EOF ?
				     _("the end of the input") : p->t->kind == HG_TK_LBRACKET ?
				     _("the next game") : _("its termination marker"));
	}
	p->nopen = 0;
	switch (p->t->kind) {
	case HG_TK_STAR:
	case HG_TK_STRING:
		termination(p);
		after_termination(p);
		break;
	default: {	/* the end of the input, or the next game (rule L4) */
		hg_diag *dg = hg_parser_error(p, p->last_end, "hgn.missing-termination",
					      "the game has no termination marker");
		if (dg)
			hg_diag_note(dg, "a game ends with its result as a string, as in \"P1\", or '*' when unfinished");
		if (p->t->kind == HG_TK_LBRACKET)
			p->glued = !p->t->blank_line;
		break;
	}
	}
}

static int parser_next(hg_parser *p, hg_game_record **out, hg_diags *d);

/* One unit of work (util.c): a game that allocation failed for is freed,
 * with its diagnostics, for HG_ENOMEM. */
int hg_parser_next(hg_parser *p, hg_game_record **out, hg_diags *d)
{
	*out = NULL;
	if (!d) {	/* nobody listens: diagnose into a list dropped each call */
		hg_diags_clear(&p->sink);
		d = &p->sink;
	}
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = parser_next(p, out, d);
	if (hg_alloc_unit_failed()) {
		hg_record_free(*out);
		*out = NULL;
	}
	hg_pos pos = { hg_lexer_name(p->lx), 0, 0 };
	return hg_alloc_unit_end(&u, d, ndiags, pos) == HG_ENOMEM ? HG_ENOMEM : rc;
}

static int parser_next(hg_parser *p, hg_game_record **out, hg_diags *d)
{
	p->d = d;
	hg_lexer_set_diags(p->lx, d);
	int had_held = p->held.n > 0;
	uint64_t held_off = p->held_off;
	hg_diags_move(d, &p->held);
	if (!p->begun)
		hg_lexer_begin_game(p->lx);
	p->begun = 0;
	hg_parser_clear_game(p);
	if (!p->started) {
		p->started = 1;
		hg_parser_advance(p);
		while (is_comment(p->t) && !hg_lexer_game_abandoned(p->lx)) {
			push_pending(p);
			hg_parser_advance(p);
		}
		p->stop = 0;
	}
	if (p->t->kind == HG_TK_EOF) {
		if (p->pending.n > 0) {
			hg_diag *dg = hg_lexer_error(p->lx, p->pending.nodes[0].pos, "hgn.no-game",
						     "the input holds comments but no game");
			if (dg)
				hg_diag_note(dg, "a game begins with its tag pairs, as in [Game \"...\"]");
			hg_line_free(&p->pending);
		}
		int err;
		if (hg_lexer_io_error(p->lx, &err)) {
			hg_pos pos = { hg_lexer_name(p->lx), 0, 0 };
			hg_diag_add(d, HG_ERROR, pos, "hgn.io-error", "read error: %s", strerror(err));
			return -1;
		}
		return 0;
	}

	hg_game_record *g = hg_record_try_new(hg_lexer_name(p->lx));
	if (!g)
		return HG_ENOMEM;
	p->g = g;
	g->pos = gpos(p, p->pending.n ? p->pending.nodes[0].pos : p->t->pos);
	p->game_off = p->pending.n ? p->pending_off : p->t->off;
	/* Bytes before the game's first token that were diagnosed for it (a
	 * stray byte after the game before) are its own: the game begins
	 * there, so that its bytes alone (herald split) say what they said. */
	if (had_held && held_off < p->game_off)
		p->game_off = held_off;
	move_comments(p, &g->header, &p->pending, g->file);
	if (p->stop || hg_lexer_game_abandoned(p->lx))
		p->stop = 1;
	actions_start(p, g);
	/* the tags go in the arena with the actions: no allocation and no
	 * free() for each name and value */
	hg_record_impl_of(g)->tags_in_arena = 1;
	parse_game(p);
	hg_atok_list_free(&p->toks);	/* (the room is the record's) */
	p->g = NULL;
	hg_lexer_set_diags(p->lx, &p->held);

	int err;
	if (p->t->kind == HG_TK_EOF && hg_lexer_io_error(p->lx, &err)) {
		hg_diags_move(d, &p->held);
		hg_pos pos = { hg_lexer_name(p->lx), 0, 0 };
		hg_diag_add(d, HG_ERROR, pos, "hgn.io-error", "read error: %s", strerror(err));
		hg_record_free(g);
		return -1;
	}
	*out = g;
	return 1;
}

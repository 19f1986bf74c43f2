/* lexer.c - the HGN lexer (grammar/hgn.ebnf, Part 1), in the manner of
 * Lua's llex.c: one current character, one function per kind of token.
 *
 * This is the clear path: it reads every token.  The characters come from
 * source.c (a fixed window, so memory does not grow with the input; code
 * points decoded once, columns counting them; bad bytes reported there and
 * read as white space or U+FFFD, so every token's text is valid UTF-8).
 * It knows tokens only: what a seat prefix, a move number or a tag pair
 * means is the parser's business.  The fast scanner (lexer-fast.c) reads
 * plain ASCII text in batches of the same tokens and leaves the rest to
 * hg_lexer_next(); the tests compare the two on every record and on
 * random input. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lexer-impl.h"

void hg_limits_default(hg_limits *l)
{
	l->nesting = HG_MAX_NESTING;
	l->token = HG_MAX_TOKEN;
	l->line = HG_MAX_LINE;
	l->game = HG_MAX_GAME;
	l->actions = HG_MAX_ACTIONS;
	l->tags = HG_MAX_TAGS;
	l->elements = HG_MAX_ELEMENTS;
	l->errors = HG_MAX_ERRORS;
}

/* ------------------------------------------------------------------------
 * Opening and closing
 * ------------------------------------------------------------------------ */

/* A new lexer, or NULL when there is no memory for it. */
static hg_lexer *lexer_new(const char *name)
{
	hg_lexer *lx = hg_open_calloc(1, sizeof *lx);
	if (!lx)
		return NULL;
	lx->name = hg_open_strdup(name ? name : "-");
	if (!lx->name) {
		free(lx);
		return NULL;
	}
	lx->run_ssse3 = hg_lexer_fast_ssse3_here();
	hg_limits_default(&lx->lim);
	lx->line = lx->col = 1;
	lx->known = 1;
	lx->line_clean = 1;
	hg_buf_init(&lx->buf);
	return lx;
}

hg_lexer *hg_lexer_open_mem(const char *name, const char *text, size_t len)
{
	hg_lexer *lx = lexer_new(name);
	if (!lx)
		return NULL;
	lx->p = lx->base = (const unsigned char *)(text ? text : "");
	lx->end = lx->p + (text ? len : 0);
	lx->at_eof = 1;
	return lx;
}

hg_lexer *hg_lexer_open_stream(const char *name, FILE *fp, int owned)
{
	hg_lexer *lx = lexer_new(name);
	if (lx)
		lx->win = hg_open_malloc(WINDOW);
	if (!lx || !lx->win) {
		hg_lexer_close(lx);
		if (owned)
			fclose(fp);
		return NULL;
	}
	lx->fp = fp;
	lx->owned = owned;
	lx->p = lx->end = lx->base = lx->win;
	return lx;
}

hg_lexer *hg_lexer_open_stream_at(const char *name, FILE *fp, int owned, const hg_resume *at)
{
	hg_lexer *lx = hg_lexer_open_stream(name, fp, owned);
	if (!lx)
		return NULL;
	lx->resumed = 1;
	lx->base_off = at->offset;
	lx->line = at->line;
	lx->game_bytes = (size_t)at->game_bytes;
	return lx;
}

/* What a lexer opened at `at` is, once it has read the '[' there: the
 * state a lexer that read the file from its start must be in for both to
 * read on alike (every field that a later token or diagnostic depends on;
 * the window is not one). */
int hg_lexer_resumes_at(const hg_lexer *lx, const hg_token *t, const hg_resume *at)
{
	return t->kind == HG_TK_LBRACKET && t->newline && !t->bad && t->off == at->offset &&
	       t->pos.line == at->line && t->pos.col == 1 &&
	       /* on the character after the '[': plain ASCII, nothing reported */
	       hg_lexer_offset(lx) == at->offset + 1 && lx->line == at->line && lx->col == 2 &&
	       lx->c > 0 && lx->c < 0x80 && lx->clen == 1 && lx->bad_run == BAD_NONE &&
	       lx->known && !lx->skipping && !lx->ioerr &&
	       /* the line's and the game's accounting */
	       lx->line_bytes == 2 && !lx->line_reported && !lx->line_clean &&
	       lx->game_bytes == at->game_bytes + 2 && !lx->game_over && lx->nerrors == 0 &&
	       !lx->gave_up &&
	       /* nothing carried to the next token */
	       lx->tokens_on_line == 1 && !lx->attach && !lx->cut_at_game;
}

void hg_lexer_close(hg_lexer *lx)
{
	if (!lx)
		return;
	if (lx->fp && lx->owned)
		fclose(lx->fp);
	free(lx->win);
	free(lx->name);
	hg_buf_free(&lx->buf);
	free(lx);
}

void hg_lexer_set_plain_ssse3(hg_lexer *lx, int on)
{
	lx->run_ssse3 = on && hg_lexer_fast_ssse3_here();
}

void hg_lexer_set_careful_only(hg_lexer *lx, int on)
{
	lx->careful_only = on;
}

void hg_lexer_set_limits(hg_lexer *lx, const hg_limits *l)
{
	lx->lim = *l;
}

const hg_limits *hg_lexer_limits(const hg_lexer *lx)
{
	return &lx->lim;
}

const char *hg_lexer_name(const hg_lexer *lx)
{
	return lx->name;
}

void hg_lexer_set_diags(hg_lexer *lx, hg_diags *d)
{
	lx->d = d;
}

void hg_lexer_set_origin(hg_lexer *lx, hg_pos pos)
{
	lx->origin = pos;
	lx->origin.file = pos.file ? lx->name : NULL;
	if (pos.line == 0) {
		lx->known = 0;
	} else {
		lx->line = pos.line;
		lx->col = pos.col ? pos.col : 1;
	}
}

uint64_t hg_lexer_offset(const hg_lexer *lx)
{
	return lx->base_off + (uint64_t)(lx->p - lx->base);
}

int hg_lexer_io_error(const hg_lexer *lx, int *err)
{
	if (err)
		*err = lx->err;
	return lx->ioerr;
}

/* ------------------------------------------------------------------------
 * Diagnostics
 * ------------------------------------------------------------------------ */


static hg_diag *lex_verror(hg_lexer *lx, hg_pos pos, const char *code,
			   const char *fmt, va_list ap)
{
	if (!lx->d || lx->skipping || lx->gave_up)
		return NULL;
	if (lx->nerrors >= lx->lim.errors) {
		lx->gave_up = 1;
		hg_diag *dg = hg_diag_add(lx->d, HG_ERROR, pos, "hgn.too-many-errors",
					  "too many errors in this game (%zu); skipping to the next game",
					  lx->lim.errors);
		hg_diag_note(dg, "the next game starts at a line beginning with '['");
		return NULL;
	}
	lx->nerrors++;
	return hg_diag_vadd(lx->d, HG_ERROR, pos, code, fmt, ap);
}

hg_diag *hg_lexer_error(hg_lexer *lx, hg_pos pos, const char *code,
			const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = lex_verror(lx, pos, code, fmt, ap);
	va_end(ap);
	return dg;
}

hg_diag *hg_lexer_warning(hg_lexer *lx, hg_pos pos, const char *code,
			  const char *fmt, ...)
{
	if (!lx->d || lx->skipping || lx->gave_up)
		return NULL;
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = hg_diag_vadd(lx->d, HG_WARNING, pos, code, fmt, ap);
	va_end(ap);
	return dg;
}

static hg_diag *lex_error(hg_lexer *lx, hg_pos pos, const char *code,
			  const char *fmt, ...) HG_PRINTF(4, 5);

static hg_diag *lex_error(hg_lexer *lx, hg_pos pos, const char *code,
			  const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag *dg = lex_verror(lx, pos, code, fmt, ap);
	va_end(ap);
	return dg;
}

void hg_lexer_begin_game(hg_lexer *lx)
{
	lx->game_bytes = 0;
	lx->game_over = 0;
	lx->nerrors = 0;
	lx->gave_up = 0;
	/* Latin-1 is found, and said, game by game: a file read from a resume
	 * point (check -j) reads each game as the whole reading does. */
	lx->seen_utf8 = 0;
	lx->latin1 = 0;
}

int hg_lexer_game_abandoned(const hg_lexer *lx)
{
	return lx->game_over || lx->gave_up;
}

/* The byte after the current character, or -1. */
static int peek_byte(hg_lexer *lx)
{
	const unsigned char *q = lx->p + lx->clen;
	return q < lx->end ? *q : -1;
}


/* ------------------------------------------------------------------------
 * Token text
 * ------------------------------------------------------------------------ */

/* Appends the current character (U+FFFD for a bad byte) to the token, up to
 * the token limit, reported once at the token's start. */
static void save_slow(hg_lexer *lx)
{
	size_t n = lx->c < 0x80 ? 1 : lx->c < 0x800 ? 2 : lx->c < 0x10000 ? 3 : 4;
	if (lx->c == BADBYTE)
		n = 3;
	if (lx->buf.len + n > lx->lim.token) {
		if (!lx->tok.bad)
			lex_error(lx, lx->tok.pos, "hgn.too-long",
				  "%s longer than %zu bytes", hg_tk_name(lx->tok.kind),
				  lx->lim.token);
		lx->tok.bad = 1;
		return;
	}
	if (lx->c >= 0 && lx->c < 0x80)
		hg_buf_putc(&lx->buf, (char)lx->c);
	else
		hg_utf8_put(&lx->buf, lx->c == BADBYTE ? 0xFFFD : (uint32_t)lx->c);
}

/* The token's text so far, NUL-terminated (save() leaves room for it). */
static const char *buf_str(hg_lexer *lx)
{
	if (!lx->buf.data)
		return "";
	lx->buf.data[lx->buf.len] = '\0';
	return lx->buf.data;
}

/* The token's text is NUL-terminated only when the token is complete. */
static inline void save(hg_lexer *lx)
{
	if (lx->c >= 0 && lx->c < 0x80 && lx->buf.len + 2 <= lx->buf.cap &&
	    lx->buf.len < lx->lim.token)
		lx->buf.data[lx->buf.len++] = (char)lx->c;
	else
		save_slow(lx);
}

static void save_next(hg_lexer *lx)
{
	save(lx);
	next(lx);
}

/* Describes the current character for a message. */
static void describe_char(hg_lexer *lx, hg_buf *out)
{
	if (lx->c == BADBYTE)
		hg_buf_puts(out, "an invalid byte");
	else if (lx->c < 0x20 || lx->c == 0x7F || (lx->c >= 0x80 && lx->c <= 0x9F))
		hg_buf_printf(out, "control character U+%04lX", (unsigned long)lx->c);
	else {
		hg_buf_puts(out, "'");
		hg_utf8_put(out, (uint32_t)lx->c);
		hg_buf_puts(out, "'");
	}
}

/* ------------------------------------------------------------------------
 * Tokens
 * ------------------------------------------------------------------------ */

/* Words, numbers, move numbers and seat prefixes (hgn.ebnf: word, number,
 * move number, seat prefix). */
static hg_tk read_word(hg_lexer *lx)
{
	int digits_only = 1;
	if (is_digit(lx->c)) {
		while (is_digit(lx->c))
			save_next(lx);
		if (lx->c == '.') {
			size_t ndigits = lx->buf.len;
			while (lx->c == '.')
				save_next(lx);
			if (!is_digit(lx->c)) {
				/* a move number: "12." or "12..." */
				unsigned long v = 0;
				int big = ndigits > 10;
				for (size_t i = 0; i < ndigits && !big; i++) {
					v = v * 10 + (unsigned long)(lx->buf.data[i] - '0');
					if (v > UINT_MAX)
						big = 1;
				}
				if (big && !lx->tok.bad) {
					lex_error(lx, lx->tok.pos, "hgn.bad-move-number",
						  "move number '%.*s.' is too large",
						  (int)(ndigits > 20 ? 20 : ndigits), lx->buf.data);
					lx->tok.bad = 1;
				}
				lx->buf.len = ndigits;
				buf_str(lx);	/* (no text when it could not grow) */
				lx->tok.value = big ? 0 : v;
				return HG_TK_MOVENUM;
			}
			digits_only = 0;
		}
	}
	while (is_word_char(lx->c)) {
		if (!is_digit(lx->c))
			digits_only = 0;
		save_next(lx);
	}
	if (lx->c == ':') {
		next(lx);
		return HG_TK_SEAT;
	}
	lx->attach = 1;
	return digits_only ? HG_TK_NUMBER : HG_TK_WORD;
}

/* Inside a string, the run of plain characters from the current one,
 * taken at once but for its last character, which save_next() takes as
 * it takes any.  Nothing is taken where a character needs a look of its
 * own: near the window's end, or where a limit is reached.  The scan
 * stops where a count would pass its limit, so it never reads further
 * than it takes: a string far over the token limit costs what a comment
 * does.  Past the token limit (reported), the run is passed over unsaved. */
static int string_run(hg_lexer *lx)
{
	if (lx->careful_only || lx->clen != 1 || lx->c < 0x20 || lx->c > 0x7E)
		return 0;
	int keep = lx->buf.len < lx->lim.token;
	if (!keep && !lx->tok.bad)
		return 0;	/* save_next() reports the limit */
	size_t room = 0;
	if (lx->line_bytes < lx->lim.line && lx->game_bytes < lx->lim.game) {
		room = lx->lim.line - lx->line_bytes;
		if (lx->lim.game - lx->game_bytes < room)
			room = lx->lim.game - lx->game_bytes;
		if (keep && lx->lim.token - lx->buf.len < room)
			room = lx->lim.token - lx->buf.len;
	}
	const unsigned char *q = lx->p, *lim = plain_limit(lx);
	if (lim > q && (size_t)(lim - q) > room)
		lim = q + room;
	const unsigned char *r = string_plain_end(q, lim);
	size_t n = (size_t)(r - q);
	if (n < 2)
		return 0;
	size_t steps = n - 1;
	if (keep)
		hg_buf_putn(&lx->buf, (const char *)q, steps);
	lx->p = q + steps;
	lx->c = *lx->p;
	lx->col += (unsigned)steps;
	lx->line_bytes += steps;
	lx->game_bytes += steps;
	lx->line_clean = 0;	/* a string is never blank */
	return 1;
}

/* A control character inside a comment or a string: an error (once per
 * token), and then read as a blank, so it is never kept or written. */
static void control_in_text(hg_lexer *lx)
{
	if (!lx->control_seen) {
		lex_error(lx, here(lx), "hgn.unexpected-char", "control character U+%04lX in a %s",
			  (unsigned long)lx->c, hg_tk_name(lx->tok.kind));
		lx->control_seen = 1;
		lx->tok.bad = 1;
	}
	lx->c = ' ';
}

/* A string (hgn.ebnf: string): no line feed inside, escapes \" and \\. */
static void read_string(hg_lexer *lx)
{
	next(lx);
	for (;;) {
		if (string_run(lx))
			save_next(lx);
		switch (lx->c) {
		case '"':
			next(lx);
			return;
		case '\n':
		case EOZ:
			lex_error(lx, lx->tok.pos, "hgn.unterminated-string",
				  "string not closed before the end of the line");
			lx->tok.bad = 1;
			return;
		case '\\': {
			hg_pos at = here(lx);
			next(lx);
			if (lx->c == '"' || lx->c == '\\') {
				save_next(lx);
				break;
			}
			if (lx->c == '\n' || lx->c == EOZ) {
				lex_error(lx, at, "hgn.bad-escape",
					  "'\\' at the end of a line escapes nothing");
				lx->tok.bad = 1;
				break;
			}
			hg_buf msg;
			hg_buf_init(&msg);
			describe_char(lx, &msg);
			hg_diag *dg = lex_error(lx, at, "hgn.bad-escape",
						"unknown escape '\\' before %s", msg.data);
			if (dg)
				hg_diag_note(dg, "the only escapes are \\\" and \\\\");
			hg_buf_free(&msg);
			lx->tok.bad = 1;
			hg_buf_putc(&lx->buf, '\\');
			save_next(lx);
			break;
		}
		default:
			if (is_control(lx->c))
				control_in_text(lx);
			save_next(lx);
			break;
		}
	}
}

/* A brace comment (hgn.ebnf: brace comment).  It may not run into the next
 * game: a line starting with '[' after a blank line ends it, unterminated. */
static void read_brace_comment(hg_lexer *lx)
{
	int line_has_text = 1, prev_blank = 0;
	next(lx);
	for (;;) {
		switch (lx->c) {
		case '}':
			next(lx);
			return;
		case EOZ:
			lex_error(lx, lx->tok.pos, "hgn.unterminated-comment",
				  "comment not closed: '{' without '}'");
			lx->tok.bad = 1;
			return;
		case '\n':
			prev_blank = !line_has_text;
			line_has_text = 0;
			save_next(lx);
			break;
		case '\r':
			if (peek_byte(lx) == '\n')
				next(lx);	/* CR LF is a line end */
			else
				save_next(lx);
			break;
		case ' ':
		case '\t':
			save_next(lx);
			break;
		case '[':
			if (!line_has_text && prev_blank) {
				hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.unterminated-comment",
							"comment not closed before the next game: '{' without '}'");
				if (dg)
					hg_diag_note(dg, "a line beginning with '[' after a blank line starts a game");
				lx->tok.bad = 1;
				lx->cut_at_game = 1;
				return;
			}
			/* fall through */
		default:
			if (is_control(lx->c)) {
				control_in_text(lx);
				save_next(lx);
				break;
			}
			line_has_text = 1;
			save_next(lx);
			break;
		}
	}
}

/* A line comment (hgn.ebnf: line comment): its text trimmed. */
static void read_line_comment(hg_lexer *lx)
{
	next(lx);
	for (;;) {
		if (is_control(lx->c))
			control_in_text(lx);
		if (lx->c != ' ' && lx->c != '\t' && lx->c != '\r')
			break;
		next(lx);
	}
	while (lx->c != '\n' && lx->c != EOZ) {
		if (is_control(lx->c))
			control_in_text(lx);
		save_next(lx);
	}
	while (lx->buf.len > 0) {
		char ch = lx->buf.data[lx->buf.len - 1];
		if (ch != ' ' && ch != '\t' && ch != '\r')
			break;
		lx->buf.data[--lx->buf.len] = '\0';
	}
}

/* A NAG (hgn.ebnf: nag).  Returns 0 after reporting a malformed one. */
static int read_nag(hg_lexer *lx)
{
	unsigned long v = 0;
	int ndigits = 0, extra = 0;
	save_next(lx);
	while (is_digit(lx->c)) {
		if (v <= 255)
			v = v * 10 + (unsigned long)(lx->c - '0');
		ndigits++;
		save_next(lx);
	}
	while (is_word_char(lx->c)) {
		extra = 1;
		save_next(lx);
	}
	if (ndigits == 0 || extra) {
		hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.bad-nag",
					"'%s' is not a NAG", buf_str(lx));
		if (dg)
			hg_diag_note(dg, "a NAG is '$' followed by a number from 0 to 255, as in '$1'");
		return 0;
	}
	if (v > 255) {
		lex_error(lx, lx->tok.pos, "hgn.bad-nag",
			  "NAG '%s' is out of range (0 to 255)", buf_str(lx));
		return 0;
	}
	lx->tok.value = v;
	return 1;
}

static int is_glyph(const char *s)
{
	static const char *const glyphs[] = { "!", "?", "!!", "??", "!?", "?!" };
	for (size_t i = 0; i < HG_ARRAY_LEN(glyphs); i++)
		if (strcmp(s, glyphs[i]) == 0)
			return 1;
	return 0;
}

/* An annotation glyph (hgn.ebnf: glyph).  Returns 0 after reporting one
 * that is unknown or attached to nothing. */
static int read_glyph(hg_lexer *lx, int attached)
{
	while (lx->c == '!' || lx->c == '?')
		save_next(lx);
	if (!attached) {
		hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.detached-glyph",
					"annotation glyph '%s' is not attached to an action",
					buf_str(lx));
		if (dg)
			hg_diag_note(dg, "write the glyph right after the action's last token, as in 'P1: place c07 1!'");
		return 0;
	}
	if (!is_glyph(buf_str(lx))) {
		hg_diag *dg = lex_error(lx, lx->tok.pos, "hgn.bad-glyph",
					"unknown annotation glyph '%s'", buf_str(lx));
		if (dg)
			hg_diag_note(dg, "the glyphs are ! ? !! ?? !? ?!");
		return 0;
	}
	return 1;
}

static void unexpected_char(hg_lexer *lx)
{
	hg_buf msg;
	hg_buf_init(&msg);
	describe_char(lx, &msg);
	hg_diag *dg = lex_error(lx, here(lx), "hgn.unexpected-char",
				"unexpected %s", msg.data);
	if (dg && lx->c == '}')
		hg_diag_note(dg, "a comment starts with '{'");
	hg_buf_free(&msg);
	next(lx);
}

static const char *const single_text[] = {
	[HG_TK_LBRACKET] = "[", [HG_TK_RBRACKET] = "]", [HG_TK_LPAREN] = "(",
	[HG_TK_RPAREN] = ")", [HG_TK_STAR] = "*", [HG_TK_COLON] = ":",
};

static hg_tk single(hg_lexer *lx, hg_tk kind)
{
	hg_buf_puts(&lx->buf, single_text[kind]);
	next(lx);
	return kind;
}

/* Skips white space (and what was already reported); returns the token. */
static hg_tk lex(hg_lexer *lx)
{
	int attached = lx->attach;
	int saw_lf = 0, clean = 0;	/* for blank lines: a LF, then only spaces */
	lx->attach = 0;
	/* After a comment cut short at the next game, the '[' begins its line
	 * after a blank line, though both lie inside the comment's text. */
	lx->tok.blank_line = lx->cut_at_game;
	if (lx->cut_at_game)
		lx->tokens_on_line = 0;
	lx->cut_at_game = 0;
	for (;;) {
		while (lx->c == ' ' || lx->c == '\t' || lx->c == '\r') {
			attached = 0;
			next(lx);
		}
		lx->buf.len = 0;
		lx->tok.pos = here(lx);
		lx->tok.off = hg_lexer_offset(lx);
		lx->tok.bad = 0;
		lx->control_seen = 0;
		lx->tok.value = 0;
		lx->tok.newline = lx->tokens_on_line == 0;
		switch (lx->c) {
		case '\n':
			if (saw_lf && clean)
				lx->tok.blank_line = 1;
			saw_lf = clean = 1;
			attached = 0;
			next(lx);
			continue;
		case ' ':
		case '\t':
		case '\r':
			attached = 0;
			next(lx);
			continue;
		case BADBYTE:
			attached = clean = 0;
			next(lx);
			continue;
		case EOZ:
			return HG_TK_EOF;
		case '[': return single(lx, HG_TK_LBRACKET);
		case ']': return single(lx, HG_TK_RBRACKET);
		case '(': return single(lx, HG_TK_LPAREN);
		case ')': return single(lx, HG_TK_RPAREN);
		case '*': return single(lx, HG_TK_STAR);
		case ':': return single(lx, HG_TK_COLON);
		case '"':
			lx->tok.kind = HG_TK_STRING;
			read_string(lx);
			return HG_TK_STRING;
		case '{':
			lx->tok.kind = HG_TK_COMMENT;
			read_brace_comment(lx);
			return HG_TK_COMMENT;
		case ';':
			lx->tok.kind = HG_TK_LINE_COMMENT;
			read_line_comment(lx);
			return HG_TK_LINE_COMMENT;
		case '$':
			lx->tok.kind = HG_TK_NAG;
			if (read_nag(lx))
				return HG_TK_NAG;
			attached = clean = 0;
			continue;
		case '!':
		case '?':
			lx->tok.kind = HG_TK_GLYPH;
			if (lx->c == '?' && !attached) {
				save_next(lx);
				lx->attach = 1;
				return HG_TK_HIDDEN;
			}
			if (read_glyph(lx, attached))
				return HG_TK_GLYPH;
			if (attached) {
				/* an unknown glyph still ends its action */
				lx->tok.bad = 1;
				return HG_TK_GLYPH;
			}
			attached = clean = 0;
			continue;
		default:
			if (is_punct(lx->c)) {
				save_next(lx);
				lx->attach = 1;
				return HG_TK_PUNCT;
			}
			if (is_word_char(lx->c)) {
				lx->tok.kind = HG_TK_WORD;
				return read_word(lx);
			}
			if (is_nonascii_space(lx->c)) {
				attached = 0;
				next(lx);
				continue;
			}
			attached = clean = 0;
			unexpected_char(lx);
			continue;
		}
	}
}

const hg_token *hg_lexer_next(hg_lexer *lx)
{
	if (!lx->started)
		hg_source_start(lx);
	hg_tk kind = lex(lx);
	hg_token *t = &lx->tok;
	t->kind = kind;
	t->end = here(lx);
	if (lx->buf.data)
		lx->buf.data[lx->buf.len] = '\0';
	t->text = lx->buf.data ? lx->buf.data : "";
	t->len = lx->buf.len;
	if (kind != HG_TK_EOF)
		lx->tokens_on_line++;
	return t;
}

void hg_lexer_skip_game(hg_lexer *lx)
{
	if (!lx->started)
		hg_source_start(lx);
	lx->skipping = 1;
	while (lx->c != EOZ && !(lx->c == '[' && lx->line_clean))
		next(lx);
	lx->skipping = 0;
	lx->attach = 0;
	lx->bad_run = BAD_NONE;
}

const char *hg_tk_name(hg_tk kind)
{
	switch (kind) {
	case HG_TK_EOF: return "end of input";
	case HG_TK_LBRACKET: return "'['";
	case HG_TK_RBRACKET: return "']'";
	case HG_TK_STRING: return "string";
	case HG_TK_MOVENUM: return "move number";
	case HG_TK_SEAT: return "seat prefix";
	case HG_TK_WORD: return "word";
	case HG_TK_NUMBER: return "number";
	case HG_TK_PUNCT: return "punctuation";
	case HG_TK_HIDDEN: return "'?'";
	case HG_TK_GLYPH: return "glyph";
	case HG_TK_NAG: return "NAG";
	case HG_TK_COMMENT: return "comment";
	case HG_TK_LINE_COMMENT: return "comment";
	case HG_TK_LPAREN: return "'('";
	case HG_TK_RPAREN: return "')'";
	case HG_TK_STAR: return "'*'";
	case HG_TK_COLON: return "':'";
	}
	return "token";
}


/* parser-tokens.c - the parser's supply of tokens (parser-impl.h): the
 * fast scanner's batches while it reads, the clear path of the lexer where
 * it stops; and the parser's errors, and how its messages name a token. */
#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "parser-impl.h"

/* The tokens come from the fast scanner's batches while it reads them,
 * else from the clear path: the same tokens either way (lexer.h). */

/* Makes the next token of the batch the current one. */
static void take_scanned(hg_parser *p)
{
	const hg_scan_token *s = &p->batch.v[p->bi++];
	hg_token *t = &p->tok;
	const char *file = p->name;
	t->kind = s->kind;
	t->pos = (hg_pos){ file, s->line, s->col };
	t->end = (hg_pos){ file, s->line, s->end_col };
	t->off = hg_scan_off(&p->batch, s);
	hg_buf_clear(&p->tok_text);
	hg_buf_putn(&p->tok_text, s->text, s->len);	/* (NUL-terminated) */
	t->text = p->tok_text.data;
	t->len = s->len;
	if (hg_buf_failed(&p->tok_text)) {
		/* no memory for its text: the unit of work fails (util.c),
		 * and the game is abandoned */
		t->text = "";
		t->len = 0;
		p->stop = 1;
	}
	t->value = s->kind == HG_TK_MOVENUM ? s->value : 0;
	t->newline = s->newline;
	t->blank_line = t->bad = 0;
	p->t = t;
	p->off_after = hg_scan_end_off(&p->batch, s);
}

int hg_parser_scan(hg_parser *p)
{
	p->bi = 0;
	return hg_lexer_scan(p->lx, &p->batch) > 0;
}

void hg_parser_skip_game(hg_parser *p)
{
	p->bi = p->batch.n = 0;
	hg_lexer_skip_game(p->lx);
}

void hg_parser_advance(hg_parser *p)
{
	if (p->t)
		p->last_end = p->t->end;
	if (p->held.n == 0)
		p->held_off = p->off_after;
	if (p->bi < p->batch.n || hg_parser_scan(p)) {
		take_scanned(p);
		return;
	}
	p->t = hg_lexer_next(p->lx);
	p->off_after = hg_lexer_offset(p->lx);
	if (hg_lexer_game_abandoned(p->lx))
		p->stop = 1;
}

hg_diag *hg_parser_error(hg_parser *p, hg_pos pos, const char *code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_buf msg;
	hg_buf_init(&msg);
	/* translated here: the lexer is given the finished message */
	hg_buf_vprintf(&msg, _(fmt), ap);
	va_end(ap);
	hg_diag *dg = hg_lexer_error(p->lx, pos, code, "%s", msg.data);
	hg_buf_free(&msg);
	if (hg_lexer_game_abandoned(p->lx))
		p->stop = 1;
	return dg;
}

/* At most `max` bytes of s, cut at a character boundary. */
static void put_clipped(hg_buf *b, const char *s, size_t max)
{
	size_t n = strlen(s);
	if (n <= max) {
		hg_buf_puts(b, s);
		return;
	}
	while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
		max--;
	hg_buf_putn(b, s, max);
	hg_buf_puts(b, "...");
}

void hg_parser_describe(const hg_token *t, hg_buf *b)
{
	switch (t->kind) {
	case HG_TK_EOF:
		hg_buf_puts(b, _("the end of the input"));
		return;
	case HG_TK_STRING:
		hg_buf_puts(b, _("a string"));
		return;
	case HG_TK_COMMENT:
	case HG_TK_LINE_COMMENT:
		hg_buf_puts(b, _("a comment"));
		return;
	case HG_TK_MOVENUM:
		hg_buf_printf(b, "'%lu.'", t->value);
		return;
	case HG_TK_NAG:
		hg_buf_printf(b, "'$%lu'", t->value);
		return;
	default:
		hg_buf_putc(b, '\'');
		put_clipped(b, t->text, 40);
		if (t->kind == HG_TK_SEAT)
			hg_buf_putc(b, ':');
		hg_buf_putc(b, '\'');
		return;
	}
}

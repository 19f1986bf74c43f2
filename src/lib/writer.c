/* writer.c - canonical HGN (herald-notation(5), CANONICAL FORM).
 *
 * The move text is cut into items (a move number, an action with its glyph,
 * a NAG, a comment); a variation's "(" and ")" stick to the items inside
 * it.  Items are laid out separated by single spaces in lines of at most
 * 79 characters, breaking only between items; a main-line move number
 * starts a line, and a ';' comment ends one; a comment that stood on lines
 * of its own in the text read (hg_node.own_line) is written on its own.  Whatever the parser reads
 * back from this text is the same record, and writes the same text. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define LINE_WIDTH 79

/* The item being assembled, kept until we know whether a ')' sticks to it. */
typedef struct layout {
	hg_buf *out;
	size_t col;		/* characters on the output's current line */
	int break_next;		/* the last item was a ';' comment */
	hg_buf item;		/* pending item */
	int have_item;
	int item_breaks;	/* it is a ';' comment */
	int item_new_line;	/* it is a main-line move number */
	hg_buf prefix;		/* '(' waiting for the next item */
	size_t prefix_open;	/* unmatched '(' in prefix */
} layout;

static void put_escaped(hg_buf *out, const char *s)
{
	hg_buf_putc(out, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			hg_buf_putc(out, '\\');
		hg_buf_putc(out, *s);
	}
	hg_buf_putc(out, '"');
}

static void put_comment(hg_buf *out, const hg_node *n)
{
	const char *text = n->comment ? n->comment : "";
	if (n->line_comment) {
		hg_buf_putc(out, ';');
		if (*text) {
			hg_buf_putc(out, ' ');
			hg_buf_puts(out, text);
		}
	} else {
		hg_buf_putc(out, '{');
		hg_buf_puts(out, text);
		hg_buf_putc(out, '}');
	}
}

/* ------------------------------------------------------------------------
 * Tags in canonical order: Game, Event, Site, Date, Round, Players,
 * Seat1..SeatN by number, Result, then the rest as given.
 * ------------------------------------------------------------------------ */

/* The digits of a seat tag's number ("Seat12" -> "12"), or NULL. */
static const char *seat_digits(const char *name)
{
	if (strncmp(name, "Seat", 4) != 0 || name[4] < '1' || name[4] > '9')
		return NULL;
	for (const char *s = name + 5; *s; s++)
		if (*s < '0' || *s > '9')
			return NULL;
	return name + 4;
}

static int seat_cmp(const void *a, const void *b)
{
	const char *x = seat_digits((*(const hg_tag *const *)a)->name);
	const char *y = seat_digits((*(const hg_tag *const *)b)->name);
	size_t lx = strlen(x), ly = strlen(y);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x, y);
}

static void put_tag(hg_buf *out, const hg_tag *t)
{
	hg_buf_printf(out, "[%s ", t->name);
	put_escaped(out, t->value ? t->value : "");
	hg_buf_puts(out, "]\n");
}

static void write_tags(const hg_game_record *g, hg_buf *out)
{
	static const char *const first[] = { "Game", "Event", "Site", "Date", "Round", "Players" };
	/* Each looked up once: the loop over every tag below compares with
	 * these, not with every tag again. */
	const hg_tag *first_tag[HG_ARRAY_LEN(first)];
	const hg_tag **seats = hg_try_calloc(g->ntags ? g->ntags : 1, sizeof *seats);
	if (!seats)
		return;	/* (the unit of work fails) */
	size_t nseats = 0;
	for (size_t k = 0; k < HG_ARRAY_LEN(first); k++) {
		first_tag[k] = hg_record_tag(g, first[k]);
		if (first_tag[k])
			put_tag(out, first_tag[k]);
	}
	for (size_t i = 0; i < g->ntags; i++)
		if (seat_digits(g->tags[i].name))
			seats[nseats++] = &g->tags[i];
	qsort(seats, nseats, sizeof *seats, seat_cmp);
	for (size_t i = 0; i < nseats; i++)
		put_tag(out, seats[i]);
	const hg_tag *result = hg_record_tag(g, "Result");
	if (result)
		put_tag(out, result);
	for (size_t i = 0; i < g->ntags; i++) {
		const hg_tag *t = &g->tags[i];
		int placed = seat_digits(t->name) || t == result;
		for (size_t k = 0; k < HG_ARRAY_LEN(first) && !placed; k++)
			placed = first_tag[k] == t;
		if (!placed)
			put_tag(out, t);
	}
	free(seats);
}

/* ------------------------------------------------------------------------
 * Move text layout
 * ------------------------------------------------------------------------ */

/* Characters on the first and the last line of s; 1 when s spans lines. */
static int measure(const char *s, size_t len, size_t *first, size_t *last)
{
	const char *nl = memchr(s, '\n', len);
	if (!nl) {
		*first = *last = hg_utf8_chars(s, len);
		return 0;
	}
	*first = hg_utf8_chars(s, (size_t)(nl - s));
	size_t start = len;
	while (start > 0 && s[start - 1] != '\n')
		start--;
	*last = hg_utf8_chars(s + start, len - start);
	return 1;
}

static void emit(layout *ly, const char *text, size_t len, int new_line, int breaks)
{
	size_t first, last;
	int multi = measure(text, len, &first, &last);
	if (ly->col > 0 || ly->break_next) {
		if (new_line || ly->break_next || ly->col + 1 + first > LINE_WIDTH) {
			hg_buf_putc(ly->out, '\n');
			ly->col = 0;
		} else {
			hg_buf_putc(ly->out, ' ');
			ly->col++;
		}
	}
	hg_buf_putn(ly->out, text, len);
	ly->col = multi ? last : ly->col + first;
	ly->break_next = breaks;
}

static void flush_item(layout *ly)
{
	if (!ly->have_item)
		return;
	/* (an item whose buffer failed may hold nothing, not even its NUL) */
	emit(ly, ly->item.data ? ly->item.data : "", ly->item.len, ly->item_new_line,
	     ly->item_breaks);
	ly->have_item = 0;
}

/* Starts a new item, taking any waiting '('. */
static hg_buf *begin_item(layout *ly, int new_line, int breaks)
{
	flush_item(ly);
	hg_buf_clear(&ly->item);
	if (ly->prefix.len) {
		hg_buf_putn(&ly->item, ly->prefix.data, ly->prefix.len);
		hg_buf_clear(&ly->prefix);
		ly->prefix_open = 0;
	}
	ly->have_item = 1;
	ly->item_new_line = new_line;
	ly->item_breaks = breaks;
	return &ly->item;
}

static void open_variation(layout *ly)
{
	flush_item(ly);
	hg_buf_putc(&ly->prefix, '(');
	ly->prefix_open++;
}

static void close_variation(layout *ly)
{
	if (ly->prefix.len) {
		/* an empty variation: "()" stands alone once balanced */
		hg_buf_putc(&ly->prefix, ')');
		if (--ly->prefix_open == 0)
			begin_item(ly, 0, 0);
		return;
	}
	if (ly->have_item && !ly->item_breaks) {
		hg_buf_putc(&ly->item, ')');
		return;
	}
	/* after a ';' comment the ')' goes on the next line */
	hg_buf_putc(begin_item(ly, 0, 0), ')');
}

static void put_action(hg_buf *b, const hg_node *n)
{
	const hg_action_text *a = &n->action;
	if (a->seat)
		hg_buf_putn(b, a->seat, a->seat_len);
	hg_buf_putc(b, ':');
	if (a->text && *a->text) {
		hg_buf_putc(b, ' ');
		hg_buf_putn(b, a->text, a->len);
	} else {
		for (size_t i = 0; i < a->ntoks; i++) {
			hg_buf_putc(b, ' ');
			hg_buf_puts(b, a->toks[i].text);
		}
	}
	if (n->glyph)
		hg_buf_puts(b, n->glyph);
}

static void layout_line(layout *ly, const hg_line *line, int depth)
{
	for (size_t i = 0; i < line->n; i++) {
		const hg_node *n = &line->nodes[i];
		switch (n->kind) {
		case HG_NODE_MOVENUM:
			hg_buf_printf(begin_item(ly, depth == 0, 0), "%u.", n->number);
			break;
		case HG_NODE_ACTION:
			put_action(begin_item(ly, 0, 0), n);
			break;
		case HG_NODE_COMMENT:
			/* a comment written on lines of its own stays so */
			put_comment(begin_item(ly, n->own_line, n->line_comment || n->own_line), n);
			break;
		case HG_NODE_NAG:
			hg_buf_printf(begin_item(ly, 0, 0), "$%u", n->number);
			break;
		case HG_NODE_VARIATION:
			open_variation(ly);
			if (n->variation)
				layout_line(ly, n->variation, depth + 1);
			close_variation(ly);
			break;
		}
	}
}

static void write_moves(const hg_line *moves, hg_buf *out)
{
	layout ly;
	memset(&ly, 0, sizeof ly);
	ly.out = out;
	hg_buf_init(&ly.item);
	hg_buf_init(&ly.prefix);
	layout_line(&ly, moves, 0);
	flush_item(&ly);
	if (ly.prefix.len)	/* cannot happen: every '(' is closed */
		emit(&ly, ly.prefix.data, ly.prefix.len, 0, 0);
	if (ly.col > 0 || ly.break_next)
		hg_buf_putc(out, '\n');
	hg_buf_free(&ly.item);
	hg_buf_free(&ly.prefix);
}

/* ------------------------------------------------------------------------
 * A game
 * ------------------------------------------------------------------------ */

static void write_comment_lines(const hg_line *l, hg_buf *out)
{
	for (size_t i = 0; i < l->n; i++) {
		if (l->nodes[i].kind != HG_NODE_COMMENT)
			continue;
		put_comment(out, &l->nodes[i]);
		hg_buf_putc(out, '\n');
	}
}

static void write_hgn(const hg_game_record *g, hg_buf *out)
{
	if (out->len > 0)
		hg_buf_putc(out, '\n');	/* the blank line between games */
	write_comment_lines(&g->header, out);
	write_tags(g, out);
	hg_buf_putc(out, '\n');
	write_moves(&g->moves, out);
	if (!g->result || strcmp(g->result, "*") == 0)
		hg_buf_puts(out, "*");
	else
		put_escaped(out, g->result);
	hg_buf_putc(out, '\n');
	write_comment_lines(&g->trailer, out);
}

int hg_write_unit_end(hg_alloc_unit *u, hg_buf *out, size_t len0)
{
	if (hg_alloc_unit_end(u, NULL, 0, (hg_pos){ NULL, 0, 0 }) != HG_ENOMEM && !out->failed)
		return 0;
	/* out as it was, and failed: nothing more goes after a hole */
	out->len = len0;
	if (out->data)
		out->data[len0] = '\0';
	out->failed = 1;
	return HG_ENOMEM;
}

int hg_write_hgn(const hg_game_record *g, hg_buf *out)
{
	hg_alloc_unit u;
	size_t len0 = out->len;
	hg_alloc_unit_begin(&u);
	write_hgn(g, out);
	return hg_write_unit_end(&u, out, len0);
}

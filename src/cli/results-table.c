/* results-table.c - the results table of `herald check --results` and
 * `--format=csv` (herald-check(1), RESULTS): a header, then one row per
 * game with its file, number, line, Event, Round, players, declared
 * result, replayed result, ending and verdict.
 *
 * The text form separates columns with a tab and shows a missing value as
 * "-", control characters escaped so that a row stays one line.  The CSV
 * form follows RFC 4180: CRLF line ends, a field quoted when it holds a
 * comma, a quote or a line end, quotes doubled; a missing value is an
 * empty field.  Since a record is untrusted and a spreadsheet runs a cell
 * that starts with '=', '+', '-' or '@' as a formula, such a value is
 * written after a single quote (OWASP's advice against CSV injection). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *const columns[] = {
	"file", "game", "line", "event", "round", "players",
	"declared", "replayed", "ended", "verdict",
};
#define NCOLUMNS (sizeof columns / sizeof *columns)

void cli_csv_field(hg_buf *b, const char *s)
{
	if (!s)
		return;
	int quote = strpbrk(s, ",\"\r\n") != NULL;
	int formula = strchr("=+-@", s[0]) != NULL && s[0];
	if (quote)
		hg_buf_putc(b, '"');
	if (formula)
		hg_buf_putc(b, '\'');
	for (; *s; s++) {
		if (*s == '"')
			hg_buf_putc(b, '"');
		hg_buf_putc(b, *s);
	}
	if (quote)
		hg_buf_putc(b, '"');
}

static void text_field(hg_buf *b, const char *s)
{
	if (!s || !*s)
		hg_buf_putc(b, '-');
	else
		hg_buf_put_visible(b, s, strlen(s), 0);
}

static void row(hg_buf *b, const char *const *fields, int csv)
{
	for (size_t i = 0; i < NCOLUMNS; i++) {
		if (i)
			hg_buf_putc(b, csv ? ',' : '\t');
		if (csv)
			cli_csv_field(b, fields[i]);
		else
			text_field(b, fields[i]);
	}
	hg_buf_puts(b, csv ? "\r\n" : "\n");
}

void cli_results_header(hg_buf *b, int csv)
{
	row(b, columns, csv);
}

void cli_results_row(hg_buf *b, const cli_game_result *g, int csv)
{
	const cli_game_facts *f = g->facts;
	char index[32], line[32];
	snprintf(index, sizeof index, "%zu", g->index);
	snprintf(line, sizeof line, "%u", g->line);
	hg_buf players;
	hg_buf_init(&players);
	if (f)
		cli_facts_players(f, &players);
	const char *fields[NCOLUMNS] = {
		g->file, index, line,
		f ? f->event : NULL, f ? f->round : NULL,
		players.data,
		g->result_tag,
		f ? f->replayed : NULL,
		f ? cli_ended_word(f->ended) : NULL,
		cli_status_name(g->status),
	};
	row(b, fields, csv);
	hg_buf_free(&players);
}

/* standings.c - `herald report --standings` (herald-report(1),
 * STANDINGS): each player's games, wins and points across many games, a
 * table per game and scoring, ranked.
 *
 * A game counts when it is legal or unverified and declares a finished
 * result (not "*"); that result has been checked against the replay, or
 * stands on the organiser's word (agreement, adjudication).  The result
 * is read in the forms the three games' notations give it:
 *
 *   "P1 (P1 14, P2 11)"   the winners, then every seat's victory points
 *                         (The Kingdoms of Crusaders with points);
 *   "victory, 15 VP"      a level and the victory points the players earn
 *                         together (Crusader Kingdoms' 1st and 3rd
 *                         Crusades: solo and cooperative); every level but
 *                         "defeat" is a win;
 *   "damasco, jerusalen"  the winning seats (or team): a win and a point
 *                         each, shared alike by seats the rules tie.
 *
 * Points of the first two forms are victory points, of the third wins:
 * they are never added together, so a game's table is per scoring.
 * Players are told apart by name (the Players tag; the seat where none). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef enum scoring { SCORE_WINS, SCORE_POINTS } scoring;
static const char *const scoring_words[] = { "wins", "victory points" };

typedef struct standing {
	char *player;
	unsigned long games, wins;
	long long points;
	size_t place;
} standing;

typedef struct table {
	char *game;		/* the Game tag as written */
	scoring how;
	standing *v;
	size_t n, cap;
} table;

struct cli_standings {
	table *t;
	size_t n, cap;
	unsigned long counted, not_counted;
};

cli_standings *cli_standings_new(void)
{
	return cli_xcalloc(1, sizeof(cli_standings));
}

static table *table_of(cli_standings *s, const char *game, scoring how)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->t[i].how == how && hg_name_eq(s->t[i].game, game))
			return &s->t[i];
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 4;
		s->t = cli_xrealloc(s->t, s->cap * sizeof *s->t);
	}
	table *t = &s->t[s->n++];
	memset(t, 0, sizeof *t);
	t->game = cli_xstrdup(game);
	t->how = how;
	return t;
}

static standing *standing_of(table *t, const char *player)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->v[i].player, player) == 0)
			return &t->v[i];
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 8;
		t->v = cli_xrealloc(t->v, t->cap * sizeof *t->v);
	}
	standing *p = &t->v[t->n++];
	memset(p, 0, sizeof *p);
	p->player = cli_xstrdup(player);
	return p;
}

/* Copies s without the white space around it. */
static char *trimmed(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return cli_xstrndup(s, n);
}

/* The seat named `name` in the game's players, or -1. */
static long seat_named(const cli_game_facts *f, const char *name)
{
	for (size_t i = 0; i < f->nplayers; i++)
		if ((f->seats[i] && hg_name_eq(f->seats[i], name)) ||
		    (f->names[i] && hg_name_eq(f->names[i], name)))
			return (long)i;
	return -1;
}

/* A game's outcome for each seat. */
typedef struct outcome {
	scoring how;
	int *win;
	long long *points;
} outcome;

/* "a, b, c": each names a seat, which wins.  0, or -1 when one does not. */
static int read_winners(const cli_game_facts *f, const char *list, size_t len, outcome *o)
{
	int any = 0;
	while (len) {
		const char *comma = memchr(list, ',', len);
		size_t n = comma ? (size_t)(comma - list) : len;
		char *name = trimmed(list, n);
		long seat = seat_named(f, name);
		free(name);
		if (seat < 0)
			return -1;
		o->win[seat] = 1;
		any = 1;
		if (!comma)
			break;
		len -= n + 1;
		list = comma + 1;
	}
	return any ? 0 : -1;
}

/* "SEAT N, SEAT N, ...": each seat's points.  0, or -1. */
static int read_points(const cli_game_facts *f, const char *list, size_t len, outcome *o)
{
	while (len) {
		const char *comma = memchr(list, ',', len);
		size_t n = comma ? (size_t)(comma - list) : len;
		char *item = trimmed(list, n);
		char *space = strrchr(item, ' ');
		char *end = NULL;
		long long pts = space ? strtoll(space + 1, &end, 10) : 0;
		int ok = space && end && *end == '\0' && end != space + 1;
		long seat = -1;
		if (ok) {
			*space = '\0';
			seat = seat_named(f, item);
		}
		free(item);
		if (seat < 0)
			return -1;
		o->points[seat] = pts;
		if (!comma)
			break;
		len -= n + 1;
		list = comma + 1;
	}
	return 0;
}

/* "LEVEL, N VP": every seat earns N; a level other than "defeat" wins. */
static int read_level(const cli_game_facts *f, const char *result, outcome *o)
{
	const char *comma = strrchr(result, ',');
	size_t len = strlen(result);
	if (!comma || len < 3 || strcmp(result + len - 3, " VP") != 0)
		return -1;
	char *num = trimmed(comma + 1, (size_t)(result + len - 3 - (comma + 1)));
	char *end = NULL;
	long long pts = strtoll(num, &end, 10);
	int ok = *num && end && *end == '\0';
	free(num);
	char *level = trimmed(result, (size_t)(comma - result));
	int win = !hg_name_eq(level, "defeat");
	free(level);
	if (!ok)
		return -1;
	for (size_t i = 0; i < f->nplayers; i++) {
		o->points[i] = pts;
		o->win[i] = win;
	}
	o->how = SCORE_POINTS;
	return 0;
}

static int read_outcome(const cli_game_facts *f, const char *result, outcome *o)
{
	size_t len = strlen(result);
	const char *open = strchr(result, '(');
	if (open && len && result[len - 1] == ')') {
		o->how = SCORE_POINTS;
		if (read_winners(f, result, (size_t)(open - result), o) != 0)
			return -1;
		return read_points(f, open + 1, (size_t)(result + len - 1 - (open + 1)), o);
	}
	if (len > 3 && strcmp(result + len - 3, " VP") == 0)
		return read_level(f, result, o);
	o->how = SCORE_WINS;
	if (read_winners(f, result, len, o) != 0)
		return -1;
	for (size_t i = 0; i < f->nplayers; i++)
		o->points[i] = o->win[i];
	return 0;
}

int cli_standings_add(cli_standings *s, const cli_game_result *g)
{
	const cli_game_facts *f = g->facts;
	if (g->status == CLI_ILLEGAL || !g->game_tag || !g->result_tag || !f ||
	    f->nplayers == 0 || strcmp(g->result_tag, "*") == 0) {
		s->not_counted++;
		return 0;
	}
	outcome o;
	o.win = cli_xcalloc(f->nplayers, sizeof *o.win);
	o.points = cli_xcalloc(f->nplayers, sizeof *o.points);
	int ok = read_outcome(f, g->result_tag, &o) == 0;
	if (ok) {
		table *t = table_of(s, g->game_tag, o.how);
		for (size_t i = 0; i < f->nplayers; i++) {
			const char *who = f->names[i] ? f->names[i] : f->seats[i];
			standing *p = standing_of(t, who ? who : "?");
			p->games++;
			p->wins += (unsigned long)o.win[i];
			p->points += o.points[i];
		}
		s->counted++;
	} else {
		s->not_counted++;
	}
	free(o.win);
	free(o.points);
	return ok ? 0 : -1;
}

/* More points first, then more wins; then by name, sharing the place. */
static int by_rank(const void *a, const void *b)
{
	const standing *x = a, *y = b;
	if (x->points != y->points)
		return x->points > y->points ? -1 : 1;
	if (x->wins != y->wins)
		return x->wins > y->wins ? -1 : 1;
	return strcmp(x->player, y->player);
}

static void rank(table *t)
{
	qsort(t->v, t->n, sizeof *t->v, by_rank);
	for (size_t i = 0; i < t->n; i++) {
		const standing *p = &t->v[i], *q = i ? &t->v[i - 1] : NULL;
		t->v[i].place = q && q->points == p->points && q->wins == p->wins ? q->place : i + 1;
	}
}

void cli_standings_write(cli_standings *s, int format, hg_buf *out)
{
	for (size_t i = 0; i < s->n; i++)
		rank(&s->t[i]);
	if (format == CLI_REPORT_JSON || format == CLI_REPORT_JSONL) {
		json_t *tables = json_array();
		for (size_t i = 0; i < s->n; i++) {
			const table *t = &s->t[i];
			json_t *rows = json_array();
			for (size_t k = 0; k < t->n; k++) {
				const standing *p = &t->v[k];
				json_t *r = json_object();
				json_object_set_new(r, "place", json_integer((json_int_t)p->place));
				json_object_set_new(r, "player", cli_json_string(p->player));
				json_object_set_new(r, "games", json_integer((json_int_t)p->games));
				json_object_set_new(r, "wins", json_integer((json_int_t)p->wins));
				json_object_set_new(r, "points", json_integer((json_int_t)p->points));
				json_array_append_new(rows, r);
			}
			json_t *o = json_object();
			json_object_set_new(o, "game", cli_json_string(t->game));
			json_object_set_new(o, "scoring", json_string(scoring_words[t->how]));
			json_object_set_new(o, "players", rows);
			json_array_append_new(tables, o);
		}
		json_t *doc = json_object();
		json_object_set_new(doc, "standings", tables);
		json_object_set_new(doc, "games_counted", json_integer((json_int_t)s->counted));
		json_object_set_new(doc, "games_not_counted", json_integer((json_int_t)s->not_counted));
		size_t flags = JSON_PRESERVE_ORDER |
			       (format == CLI_REPORT_JSON ? JSON_INDENT(2) : JSON_COMPACT);
		char *text = json_dumps(doc, flags);
		json_decref(doc);
		if (text)
			hg_buf_printf(out, "%s\n", text);
		free(text);
		return;
	}
	if (format == CLI_REPORT_CSV) {
		hg_buf_puts(out, "game,scoring,place,player,games,wins,points\r\n");
		for (size_t i = 0; i < s->n; i++) {
			const table *t = &s->t[i];
			for (size_t k = 0; k < t->n; k++) {
				const standing *p = &t->v[k];
				cli_csv_field(out, t->game);
				hg_buf_printf(out, ",%s,%zu,", scoring_words[t->how], p->place);
				cli_csv_field(out, p->player);
				hg_buf_printf(out, ",%lu,%lu,%lld\r\n", p->games, p->wins, p->points);
			}
		}
		return;
	}
	for (size_t i = 0; i < s->n; i++) {
		const table *t = &s->t[i];
		hg_buf_puts(out, i ? "\n" : "");
		hg_buf_put_visible(out, t->game, strlen(t->game), 0);
		hg_buf_printf(out, " (points: %s)\nplace\tplayer\tgames\twins\tpoints\n",
			      scoring_words[t->how]);
		for (size_t k = 0; k < t->n; k++) {
			const standing *p = &t->v[k];
			hg_buf_printf(out, "%zu\t", p->place);
			hg_buf_put_visible(out, p->player, strlen(p->player), 0);
			hg_buf_printf(out, "\t%lu\t%lu\t%lld\n", p->games, p->wins, p->points);
		}
	}
	hg_buf_puts(out, s->n ? "\n" : "");
	hg_buf_printf(out, hg_ngettext("%lu game counted, %lu not counted (illegal, unfinished, or a "
				       "result that names no seat)\n",
				       "%lu games counted, %lu not counted (illegal, unfinished, or a "
				       "result that names no seat)\n", s->counted),
		      s->counted, s->not_counted);
}

void cli_standings_free(cli_standings *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		for (size_t k = 0; k < s->t[i].n; k++)
			free(s->t[i].v[k].player);
		free(s->t[i].v);
		free(s->t[i].game);
	}
	free(s->t);
	free(s);
}

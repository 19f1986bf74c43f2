/* cmd-next.c - `herald next`: for correspondence play, the position at the
 * end of a record's main line, whose turn it is, and every legal action
 * (or the result when the game is over); with --as, all of it as one seat
 * may see it (the position of the seat's view, hg_view_record, and only
 * the actions that seat may take); as text, or as JSON for programs
 * (grammar/herald-next.schema.json). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { NEXT_TEXT, NEXT_JSON };
static const char *const next_formats[] = { "text", "json", NULL };

typedef struct next_run {
	cli_common common;
	const char *as;		/* --as, or NULL */
	int from;		/* --from: cli_informat, -1: by extension */
	hg_session *session;
	hg_buf out;
	const hg_node *last;	/* the last action replayed on the main line */
	int bad;
	int unknown_seat;
} next_run;

/* What `next` tells of one game, in either format. */
typedef struct next_report {
	const char *game;		/* the Game tag, or NULL */
	char *seat;			/* --as: the seat's canonical name */
	int replayed;			/* 0: malformed or no view: nothing below */
	char *last_seat, *last_text;	/* the last legal action shown (NULL: none) */
	char *last_glyph;
	unsigned last_line;
	int stopped;			/* an illegal action stopped the main line */
	char *position;			/* the picture of the position */
	char *result;			/* NULL while the game goes on */
	char *ending;			/* why, when it ended otherwise than by the rules */
	char *to_move;
	unsigned turn;
	char **legal;			/* "seat: body", canonical */
	size_t nlegal;
	int has_pending;		/* an action is held pending: */
	hg_pending pending;		/* what every seat knows of it */
} next_report;

static cli_spec spec;	/* below: --from's usage errors name it */

static int next_option(void *ctx, int opt, const char *arg)
{
	next_run *r = ctx;
	if (opt == 'a') {
		r->as = arg;
		return 0;
	}
	if (opt == 'F')
		return cli_from_option(&spec, arg, &r->from);
	return -1;
}

static const struct option longopts[] = {
	{ "as", required_argument, NULL, 'a' },
	{ "from", required_argument, NULL, 'F' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "next",
	.synopsis = "[OPTION]... FILE",
	.about =
	N_("Replay the games of FILE ('-': standard input) and show, for each, the\n"
	"position after the last action of the main line, whose turn it is, and\n"
	"every legal action, one per line as 'seat: action' in canonical spelling,\n"
	"ready to be copied into the record; or the result when the game is over.\n"
	"When the record has an illegal action, the position shown is the one\n"
	"before it.  With --as, the position is the one of the seat's view (see\n"
	"'herald view'), and only the seat's own legal actions are listed.\n"
	"Diagnostics go to standard error (with --format=json, into the JSON).\n"
	"\n"
	"Exit status: as 'herald check': 0 legal, 1 illegal or malformed, 2 on a\n"
	"usage or input/output error (an unknown SEAT among them).\n"),
	.options_help =
	N_("  -a, --as=SEAT          show what the seat SEAT may see and do\n"
	"      --from=FORMAT      read every FILE as FORMAT: hgn, json, jsonl or yaml\n"
	"                         (default: by its extension, .json, .jsonl, .yaml,\n"
	"                         .yml; else HGN)\n"
	"      --format=FORMAT    text (the default), or json: one object per game,\n"
	"                         each on a line (grammar/herald-next.schema.json)\n"),
	.formats = next_formats,
	.shortopts = "a:",
	.longopts = longopts,
	.option = next_option,
};

static void after_action(void *ctx, const hg_game_class *cls, const hg_node *node,
			 const hg_state *after, unsigned depth)
{
	next_run *r = ctx;
	(void)cls;
	(void)after;
	if (depth == 0)
		r->last = node;
}

/* A copy of s, or cli_out_of_memory(). */
static char *copy_of(const char *s)
{
	char *c = strdup(s);
	if (!c)
		cli_out_of_memory();
	return c;
}

/* The text of a buffer, taken (cli_out_of_memory() when it failed). */
static char *text_of(hg_buf *b)
{
	cli_buf_check(b);
	char *t = hg_buf_steal(b);
	if (!t)
		cli_out_of_memory();
	return t;
}

/* The legal actions now; with `seat`, only the choices of that seat (not
 * the outcomes of chance herald deals).  Short of memory herald says so
 * and exits (2), never lists some of them as if they were all. */
static void gather_legal(next_report *rep, const hg_game_class *cls, const hg_state *st,
			 const char *seat)
{
	hg_action_list legal = { 0 };
	if (hg_legal_actions(cls, st, &legal) == HG_ENOMEM)
		cli_out_of_memory();
	rep->legal = calloc(legal.n ? legal.n : 1, sizeof *rep->legal);
	if (!rep->legal)
		cli_out_of_memory();
	hg_buf who, body;
	hg_buf_init(&who);
	hg_buf_init(&body);
	for (size_t i = 0; i < legal.n; i++) {
		hg_buf_clear(&who);
		hg_buf_clear(&body);
		cls->format(st, legal.v[i], &who, &body);
		cli_buf_check(&who);
		cli_buf_check(&body);
		const char *w = who.data ? who.data : "";
		if (!seat || (strcmp(w, seat) == 0 && !cls->names_chance(st, legal.v[i]))) {
			hg_buf line;
			hg_buf_init(&line);
			hg_buf_printf(&line, "%s: %s", w, body.data ? body.data : "");
			rep->legal[rep->nlegal++] = text_of(&line);
		}
		cls->free_action(legal.v[i]);
	}
	free(legal.v);
	hg_buf_free(&who);
	hg_buf_free(&body);
}

/* While an action is held pending (herald-move(1), PENDING ACTIONS): the
 * steps of the seats awaited (with `seat`, of that seat only). */
static void gather_steps(next_report *rep, const hg_game_class *cls, const hg_state *st,
			 const char *seat)
{
	const hg_pending *p = &rep->pending;
	hg_buf steps;
	hg_buf_init(&steps);
	size_t cap = 0;
	for (size_t k = 0; k < p->nawaited; k++) {
		const char *who = p->awaited[k];
		if (seat && !hg_name_eq(who, seat))
			continue;
		hg_buf_clear(&steps);
		cls->pending_steps(st, p, who, &steps);
		cli_buf_check(&steps);
		const char *at = steps.data ? steps.data : "";
		for (const char *nl; (nl = strchr(at, '\n')) != NULL; at = nl + 1) {
			if (rep->nlegal == cap) {
				cap = cap ? 2 * cap : 8;
				char **more = realloc(rep->legal, cap * sizeof *rep->legal);
				if (!more)
					cli_out_of_memory();
				rep->legal = more;
			}
			hg_buf line;
			hg_buf_init(&line);
			hg_buf_printf(&line, "%s: %.*s", who, (int)(nl - at), at);
			rep->legal[rep->nlegal++] = text_of(&line);
		}
	}
	if (!rep->legal && !(rep->legal = calloc(1, sizeof *rep->legal)))
		cli_out_of_memory();
	hg_buf_free(&steps);
}

/* With --as, the seat's view of the game (NULL after diagnostics; *unknown
 * set for a seat the game has not). */
static hg_game_record *seat_view(next_run *r, const hg_game_record *g, hg_diags *d,
				 unsigned *seat, int *unknown)
{
	int rc = hg_view_seat(r->session, g, r->as, seat, d);
	if (rc == HG_ENOMEM)
		cli_out_of_memory();
	if (rc != 0) {
		for (size_t i = 0; i < d->n; i++)
			if (strcmp(d->v[i].code, "view.unknown-seat") == 0)
				*unknown = 1;
		return NULL;
	}
	hg_game_record *view = hg_view_record(r->session, g, *seat, d);
	if (!view && cli_ran_out_of_memory(d))
		cli_out_of_memory();
	return view;
}

/* Replays the game (or the seat's view) and fills the report. */
static void next_replay(next_run *r, const hg_game_record *g, hg_diags *d, next_report *rep)
{
	int unknown = 0;
	unsigned seat = 0;
	hg_game_record *view = r->as ? seat_view(r, g, d, &seat, &unknown) : NULL;
	if (r->as && !view) {
		if (unknown)
			r->unknown_seat = 1;
		r->bad = 1;
		return;
	}
	const hg_game_record *shown = view ? view : g;
	/* A view replays as legal or unverified: what it could not verify is
	 * no news to its seat, and goes unsaid. */
	hg_diags view_diags;
	hg_diags_init(&view_diags);
	hg_diags *replay_diags = view ? &view_diags : d;
	r->last = NULL;
	hg_replay_hooks hooks = { after_action, r };
	hg_state *st = NULL;
	const hg_game_class *cls = NULL;
	int checked = hg_check_game(r->session, shown, replay_diags, &hooks, NULL, &st, &cls);
	if (checked == HG_ENOMEM)
		cli_out_of_memory();
	int illegal = checked != 0 || replay_diags->nerrors > 0;
	if (view_diags.nerrors)
		hg_diags_move(d, &view_diags);	/* (one lost is counted in d) */
	hg_diags_free(&view_diags);
	if (illegal)
		r->bad = 1;
	if (st && cls) {
		rep->replayed = 1;
		/* Did the main line stop before its last written action? */
		const hg_node *written = NULL;
		for (size_t i = 0; i < shown->moves.n; i++)
			if (shown->moves.nodes[i].kind == HG_NODE_ACTION)
				written = &shown->moves.nodes[i];
		rep->stopped = illegal && written != r->last;
		if (r->last) {
			/* The node is the shown record's, which goes before the
			 * report is printed. */
			rep->last_seat = copy_of(r->last->action.seat ? r->last->action.seat : "");
			rep->last_text = copy_of(r->last->action.text ? r->last->action.text : "");
			rep->last_glyph = r->last->glyph ? copy_of(r->last->glyph) : NULL;
			rep->last_line = r->last->pos.line;
		}
		if (r->as)
			rep->seat = copy_of(cls->seat_name(st, seat));
		hg_buf render;
		hg_buf_init(&render);
		if (hg_render_position(cls, st, &render) == HG_ENOMEM)
			cli_out_of_memory();
		rep->position = text_of(&render);
		/* result and to_move point into the state: copied before it goes */
		const char *result = cls->result(st);
		hg_buf ending;
		hg_buf_init(&ending);
		if (!illegal && hg_record_ending(shown, &ending)) {
			/* ended otherwise than by the rules (herald-notation(5),
			 * ENDINGS): the declared result, and why */
			const char *declared = hg_record_tag_value(shown, "Result");
			rep->ending = text_of(&ending);
			result = declared ? declared : (shown->result ? shown->result : "*");
		}
		hg_buf_free(&ending);
		if (result) {
			rep->result = copy_of(result);
		} else {
			const char *who = cls->to_move(st);
			rep->to_move = who ? copy_of(who) : NULL;
			rep->turn = cls->turn(st);
			if (cls->pending_steps && hg_pending_from_tags(shown, &rep->pending) == 1) {
				/* the seats answer within the action: the first
				 * awaited is the one to move */
				rep->has_pending = 1;
				free(rep->to_move);
				rep->to_move = rep->pending.nawaited ?
					       copy_of(rep->pending.awaited[0]) : NULL;
				gather_steps(rep, cls, st, rep->seat);
			} else {
				gather_legal(rep, cls, st, rep->seat);
			}
		}
		cls->free_state(st);
	}
	hg_record_free(view);
}

static void report_free(next_report *rep)
{
	free(rep->seat);
	free(rep->last_seat);
	free(rep->last_text);
	free(rep->last_glyph);
	free(rep->position);
	free(rep->result);
	free(rep->ending);
	free(rep->to_move);
	hg_strv_free(rep->legal, rep->nlegal);
	hg_pending_free(&rep->pending);
}

static void print_text(next_run *r, const char *path, size_t index, const hg_game_record *g,
		       const next_report *rep)
{
	hg_buf *out = &r->out;
	if (index > 1)
		hg_buf_putc(out, '\n');
	hg_buf_printf(out, "game %zu (", index);
	cli_put_place(out, path, g->pos.line);
	hg_buf_printf(out, "): %s\n", rep->game ? rep->game : "(no Game tag)");
	if (!rep->replayed)
		return;
	if (rep->seat)
		hg_buf_printf(out, "as seen by %s\n", rep->seat);
	const char *stopped = rep->stopped ? " (the main line's last legal action)" : "";
	if (rep->last_seat) {
		hg_buf_printf(out, "position after %s: %s%s (", rep->last_seat,
			      rep->last_text, rep->last_glyph ? rep->last_glyph : "");
		cli_put_place(out, path, rep->last_line);
		hg_buf_printf(out, ")%s:\n", stopped);
	} else
		hg_buf_printf(out, "starting position%s:\n",
			      rep->stopped ? " (the first action is illegal)" : "");
	if (rep->position && *rep->position) {
		hg_buf_puts(out, rep->position);
		if (rep->position[strlen(rep->position) - 1] != '\n')
			hg_buf_putc(out, '\n');
	}
	if (rep->result) {
		if (rep->ending)
			hg_buf_printf(out, "the game is over: %s (%s)\n", rep->result, rep->ending);
		else
			hg_buf_printf(out, "the game is over: %s\n", rep->result);
		return;
	}
	if (rep->has_pending) {
		hg_pending_summary(&rep->pending, out);
	}
	hg_buf_printf(out, "to move: %s (move number %u)\n", rep->to_move ? rep->to_move : "?",
		      rep->turn);
	if (rep->seat)
		hg_buf_printf(out, "legal actions of %s (%zu):\n", rep->seat, rep->nlegal);
	else
		hg_buf_printf(out, "legal actions (%zu):\n", rep->nlegal);
	for (size_t i = 0; i < rep->nlegal; i++)
		hg_buf_printf(out, "%s\n", rep->legal[i]);
}

static json_t *json_string_or_null(const char *s)
{
	return s ? cli_json_string(s) : json_null();
}

/* One game as grammar/herald-next.schema.json describes it; the game's
 * diagnostics go into it (and are taken out of d). */
static void print_json(next_run *r, const char *path, size_t index, const hg_game_record *g,
		       const next_report *rep, hg_diags *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "file", cli_json_string(path));
	json_object_set_new(o, "game", json_integer((json_int_t)index));
	json_object_set_new(o, "line", json_integer(g->pos.line));
	json_object_set_new(o, "game_id", json_string_or_null(rep->game));
	json_object_set_new(o, "seat", json_string_or_null(rep->seat));
	json_object_set_new(o, "status", json_string(d->nerrors || !rep->replayed ? "illegal" :
						     d->nunverified ? "unverified" : "legal"));
	if (rep->replayed) {
		json_t *last = json_null();
		if (rep->last_seat) {
			last = json_object();
			json_object_set_new(last, "seat", cli_json_string(rep->last_seat));
			json_object_set_new(last, "action", cli_json_string(rep->last_text));
			json_object_set_new(last, "line", json_integer(rep->last_line));
		}
		json_object_set_new(o, "after", last);
		json_object_set_new(o, "stopped", json_boolean(rep->stopped));
		json_object_set_new(o, "position", cli_json_string(rep->position ? rep->position : ""));
		json_object_set_new(o, "over", json_boolean(rep->result != NULL));
		json_object_set_new(o, "result", json_string_or_null(rep->result));
		json_object_set_new(o, "ending", json_string_or_null(rep->ending));
		json_object_set_new(o, "to_move", json_string_or_null(rep->to_move));
		json_object_set_new(o, "turn", rep->result ? json_null() : json_integer(rep->turn));
		json_t *legal = json_array();
		for (size_t i = 0; i < rep->nlegal; i++) {
			/* "seat: body" (a seat holds no ':') */
			const char *colon = strchr(rep->legal[i], ':');
			char *who = strndup(rep->legal[i], (size_t)(colon - rep->legal[i]));
			if (!who)
				cli_out_of_memory();
			json_t *a = json_object();
			json_object_set_new(a, "seat", cli_json_string(who));
			json_object_set_new(a, "action", cli_json_string(colon + 2));
			free(who);
			json_array_append_new(legal, a);
		}
		json_object_set_new(o, "legal", legal);
		json_t *pending = json_null();
		if (rep->has_pending) {
			const hg_pending *p = &rep->pending;
			pending = json_object();
			json_object_set_new(pending, "seat", cli_json_string(p->seat));
			json_object_set_new(pending, "action", cli_json_string(p->declared));
			json_t *awaiting = json_array();
			for (size_t k = 0; k < p->nawaited; k++)
				json_array_append_new(awaiting, cli_json_string(p->awaited[k]));
			json_object_set_new(pending, "awaiting", awaiting);
			json_t *down = json_array();
			for (size_t i = 0; i < p->nparts; i++) {
				json_t *part = json_object();
				json_object_set_new(part, "seat", cli_json_string(p->parts[i].seat));
				json_object_set_new(part, "cards", json_integer(p->parts[i].face_down));
				json_array_append_new(down, part);
			}
			json_object_set_new(pending, "face_down", down);
		}
		json_object_set_new(o, "pending", pending);
	}
	json_object_set_new(o, "diagnostics", cli_json_diags(d, 0));
	hg_diags_clear(d);
	/* (jansson's allocations end herald short of memory: herald.c) */
	char *text = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	if (!text)
		cli_out_of_memory();
	hg_buf_puts(&r->out, text);
	hg_buf_putc(&r->out, '\n');
	free(text);
}

/* One game for cli_show_games. */
static int show_game(void *ctx, const char *path, size_t index, const hg_game_record *g,
		     hg_diags *d)
{
	next_run *r = ctx;
	r->bad = 0;
	next_report rep;
	memset(&rep, 0, sizeof rep);
	rep.game = hg_record_tag_value(g, "Game");
	if (d->nerrors)
		r->bad = 1;	/* malformed: not replayed */
	else
		next_replay(r, g, d, &rep);
	if (r->unknown_seat) {
		report_free(&rep);
		return CLI_SHOW_IO;	/* a usage error: stop here */
	}
	if (r->common.format == NEXT_JSON)
		print_json(r, path, index, g, &rep, d);
	else
		print_text(r, path, index, g, &rep);
	report_free(&rep);
	return r->bad ? CLI_SHOW_BAD : 0;
}

int cli_next_main(int argc, char **argv)
{
	next_run r;
	memset(&r, 0, sizeof r);
	r.from = -1;
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	hg_buf_init(&r.out);
	r.session = cli_session_new(&r.common);
	status = cli_show_games(&spec, &r.common, argc, argv, first, r.from, show_game, &r, &r.out);
	hg_buf_free(&r.out);
	hg_session_free(r.session);
	return r.unknown_seat ? CLI_EXIT_USAGE : status;
}

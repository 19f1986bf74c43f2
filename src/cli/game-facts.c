/* game-facts.c - what a tournament director's results table says of one
 * game besides its verdict (herald-check(1), RESULTS): its Event and
 * Round, the players by name in seat order, the result the replay gives
 * and how the game ended.  Taken from the record and its replay while both
 * are at hand, so that the report needs neither afterwards. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char *const ending_words[] = {
	[CLI_ENDED_RULES] = "rules",
	[CLI_ENDED_RESIGNATION] = "resignation",
	[CLI_ENDED_AGREEMENT] = "agreement",
	[CLI_ENDED_FORFEIT] = "forfeit",
	[CLI_ENDED_ADJUDICATION] = "adjudication",
	[CLI_ENDED_UNFINISHED] = "unfinished",
};

const char *cli_ended_word(cli_ended e)
{
	return e > CLI_ENDED_UNKNOWN && (size_t)e < sizeof ending_words / sizeof *ending_words ?
	       ending_words[e] : NULL;
}

cli_ended cli_ended_parse(const char *word)
{
	for (size_t i = 1; word && i < sizeof ending_words / sizeof *ending_words; i++)
		if (strcmp(word, ending_words[i]) == 0)
			return (cli_ended)i;
	return CLI_ENDED_UNKNOWN;
}

static char *dup_or_null(const char *s)
{
	return s ? cli_xstrdup(s) : NULL;
}

/* The seat that resigns on the main line, by name as written, or NULL. */
static const char *resigning_seat(const hg_game_record *rec)
{
	const hg_line *l = &rec->moves;
	for (size_t i = 0; i < l->n; i++)
		if (l->nodes[i].kind == HG_NODE_ACTION && hg_action_is_resign(&l->nodes[i].action))
			return l->nodes[i].action.seat;
	return NULL;
}

/* How the record says the game ended, before any replay. */
static cli_ended declared_ending(const hg_game_record *rec)
{
	if (resigning_seat(rec))
		return CLI_ENDED_RESIGNATION;
	switch (hg_termination_kind(hg_record_tag_value(rec, "Termination"))) {
	case HG_END_AGREEMENT: return CLI_ENDED_AGREEMENT;
	case HG_END_FORFEIT: return CLI_ENDED_FORFEIT;
	case HG_END_ADJUDICATION: return CLI_ENDED_ADJUDICATION;
	}
	return CLI_ENDED_UNKNOWN;
}

/* The result a resignation or forfeit by the seat `who` gives, or NULL
 * when `who` holds no seat. */
static char *conceded_result(const hg_game_class *cls, const hg_state *st, const char *who)
{
	int seat = hg_seat_index(cls, st, who);
	if (seat < 0)
		return NULL;
	hg_buf b;
	hg_buf_init(&b);
	hg_resign_result(cls, st, (unsigned)seat, &b);
	cli_buf_check(&b);
	char *s = b.data ? hg_buf_steal(&b) : cli_xstrdup("");
	hg_buf_free(&b);
	return s;
}

/* The main line's last action that is applied to the position (a
 * resignation is not), or NULL when there is none. */
static const hg_node *last_applied(const hg_game_record *rec)
{
	const hg_line *l = &rec->moves;
	for (size_t i = l->n; i-- > 0;)
		if (l->nodes[i].kind == HG_NODE_ACTION && !hg_action_is_resign(&l->nodes[i].action))
			return &l->nodes[i];
	return NULL;
}

/* What the position at the main line's end says: the seats, the result
 * the replay gives, how the game ended. */
static void facts_at_end(cli_game_facts *f, const hg_game_record *rec,
			 const hg_game_class *cls, const hg_state *st)
{
	size_t nseats = 0;
	if (cls->seat_name)
		while (cls->seat_name(st, (unsigned)nseats))
			nseats++;
	if (nseats > f->nplayers) {
		f->names = cli_xrealloc(f->names, nseats * sizeof *f->names);
		f->seats = cli_xrealloc(f->seats, nseats * sizeof *f->seats);
		for (size_t i = f->nplayers; i < nseats; i++)
			f->names[i] = f->seats[i] = NULL;
		f->nplayers = nseats;
	}
	for (size_t i = 0; i < nseats; i++) {
		free(f->seats[i]);
		f->seats[i] = cli_xstrdup(cls->seat_name(st, (unsigned)i));
	}
	free(f->replayed);
	const char *by_rules = cls->result(st);
	switch (f->ended) {
	case CLI_ENDED_RESIGNATION:
		f->replayed = conceded_result(cls, st, resigning_seat(rec));
		break;
	case CLI_ENDED_FORFEIT: {
		const char *who = hg_record_tag_value(rec, "Forfeit");
		f->replayed = who ? conceded_result(cls, st, who) : NULL;
		break;
	}
	default:
		/* An agreement or an adjudication stands on the organiser's word:
		 * the replay itself gives "*" (or the rules' result, which the
		 * check then reports as a contradiction). */
		f->replayed = cli_xstrdup(by_rules ? by_rules : "*");
		if (f->ended == CLI_ENDED_UNKNOWN)
			f->ended = by_rules ? CLI_ENDED_RULES : CLI_ENDED_UNFINISHED;
		break;
	}
}

/* The replay's hook: at the main line's last action, the position is the
 * final one.  Taken here because keeping the final position past the
 * replay (hg_check_game's `final`) copies the position at every action. */
static void at_action(void *ctx, const hg_game_class *cls, const hg_node *node,
		      const hg_state *after, unsigned depth)
{
	cli_facts_probe *p = ctx;
	if (depth == 0 && node == p->last) {
		facts_at_end(p->facts, p->rec, cls, after);
		p->reached = 1;
	}
}

void cli_facts_begin(cli_facts_probe *p, cli_game_facts *f, const hg_game_record *rec)
{
	memset(f, 0, sizeof *f);
	f->event = dup_or_null(hg_record_tag_value(rec, "Event"));
	f->round = dup_or_null(hg_record_tag_value(rec, "Round"));
	char **names = NULL;
	f->nplayers = hg_record_players(rec, &names);
	f->names = cli_xcalloc(f->nplayers ? f->nplayers : 1, sizeof *f->names);
	f->seats = cli_xcalloc(f->nplayers ? f->nplayers : 1, sizeof *f->seats);
	for (size_t i = 0; i < f->nplayers; i++)
		f->names[i] = names[i][0] ? cli_xstrdup(names[i]) : NULL;
	hg_strv_free(names, f->nplayers);
	f->ended = declared_ending(rec);

	memset(p, 0, sizeof *p);
	p->facts = f;
	p->rec = rec;
	p->last = last_applied(rec);
	p->hooks.after_action = at_action;
	p->hooks.ctx = p;
}

void cli_facts_end(cli_facts_probe *p, hg_session *session, int legal)
{
	if (!legal || p->reached || p->last)
		return;
	/* No action changed the position: the game's set-up is its end. */
	const hg_game_class *cls;
	const hg_gdata *data;
	hg_diags quiet;
	hg_diags_init(&quiet);
	if (hg_session_prepare(session, p->rec, &cls, &data, &quiet) == 0) {
		hg_state *st = hg_state_setup(cls, data, p->rec, &quiet);
		if (!st && cli_ran_out_of_memory(&quiet))
			cli_out_of_memory();
		if (st) {
			facts_at_end(p->facts, p->rec, cls, st);
			cls->free_state(st);
		}
	}
	hg_diags_free(&quiet);
}

void cli_facts_free(cli_game_facts *f)
{
	if (!f)
		return;
	free(f->event);
	free(f->round);
	free(f->replayed);
	for (size_t i = 0; i < f->nplayers; i++) {
		free(f->names[i]);
		free(f->seats[i]);
	}
	free(f->names);
	free(f->seats);
	memset(f, 0, sizeof *f);
}

void cli_facts_players(const cli_game_facts *f, hg_buf *out)
{
	for (size_t i = 0; i < f->nplayers; i++) {
		const char *name = f->names[i], *seat = f->seats[i];
		if (i)
			hg_buf_puts(out, "; ");
		if (name && seat && !hg_name_eq(name, seat))
			hg_buf_printf(out, "%s (%s)", name, seat);
		else
			hg_buf_puts(out, name ? name : seat ? seat : "?");
	}
}

json_t *cli_facts_players_json(const cli_game_facts *f)
{
	json_t *a = json_array();
	for (size_t i = 0; i < f->nplayers; i++) {
		json_t *p = json_object();
		json_object_set_new(p, "seat", cli_json_string(f->seats[i]));
		json_object_set_new(p, "name", cli_json_string(f->names[i]));
		json_array_append_new(a, p);
	}
	return a;
}

int cli_facts_from_json(cli_game_facts *f, json_t *game)
{
	memset(f, 0, sizeof *f);
	json_t *tags = json_object_get(game, "tags");
	json_t *event = json_object_get(tags, "Event"), *round = json_object_get(tags, "Round");
	json_t *replayed = json_object_get(game, "replayed_result");
	json_t *ended = json_object_get(game, "ended");
	json_t *players = json_object_get(game, "players");
	if ((event && !json_is_string(event) && !json_is_null(event)) ||
	    (round && !json_is_string(round) && !json_is_null(round)) ||
	    (replayed && !json_is_string(replayed) && !json_is_null(replayed)) ||
	    (ended && !json_is_null(ended) && cli_ended_parse(json_string_value(ended)) == CLI_ENDED_UNKNOWN) ||
	    (players && !json_is_array(players)))
		return -1;
	f->event = dup_or_null(json_string_value(event));
	f->round = dup_or_null(json_string_value(round));
	f->replayed = dup_or_null(json_string_value(replayed));
	f->ended = cli_ended_parse(json_string_value(ended));
	f->nplayers = json_array_size(players);
	f->names = cli_xcalloc(f->nplayers ? f->nplayers : 1, sizeof *f->names);
	f->seats = cli_xcalloc(f->nplayers ? f->nplayers : 1, sizeof *f->seats);
	for (size_t i = 0; i < f->nplayers; i++) {
		json_t *p = json_array_get(players, i);
		if (!json_is_object(p)) {
			cli_facts_free(f);
			return -1;
		}
		f->names[i] = dup_or_null(json_string_value(json_object_get(p, "name")));
		f->seats[i] = dup_or_null(json_string_value(json_object_get(p, "seat")));
	}
	return 0;
}

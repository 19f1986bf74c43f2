/* referee.c - the judge's game master: a message's commands turned into
 * libherald calls on the game's master record (hg_master_move,
 * hg_master_end, hg_master_reveal), `new` games, the deadlines of --tick,
 * and the messages every seat is sent.  What a seat is sent is made from
 * that seat's view of the record only (hg_view_record): never from the
 * master record, which holds every seat's cards. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "herald-engine.h"
#include "gamedir.h"
#include "referee.h"

/* Legal actions listed in one message at most (the rest are counted). */
#define JUDGE_MAX_LEGAL_SHOWN 60

static const char help_text[] =
	"herald judge: commands, one a line, in a plain-text message whose subject\n"
	"holds the game's id in brackets, e.g. \"[encrucijada-1]\":\n"
	"  ACTION                  an action, as `herald move` takes it (every line\n"
	"                          that is none of the commands below)\n"
	"  view, legal             your view of the game and what you may do\n"
	"  resign                  resign the game\n"
	"  offer draw              offer the other seats to share the game\n"
	"  accept, decline         answer a standing draw offer\n"
	"  entropy WORD            your word for the game's seed, before the first deal\n"
	"  token WORD              your token, when you have set one\n"
	"  set token WORD          ask for WORD in every later message of yours\n"
	"  help                    this text\n"
	"The first action that is refused stops the rest.  Quoted lines ('>'),\n"
	"your signature ('-- ') and a quoted message are not read.\n"
	"To start a game, with no id in the subject:\n"
	"  new GAME ADDRESS ADDRESS... [variant=V] [deadline=HOURS] [entropy=WORD]\n"
	"(the addresses in seat order, yours among them).\n";

static void iso_date(time_t t, char out[32])
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* ------------------------------------------------------------------------
 * What a seat sees.
 * ------------------------------------------------------------------------ */

/* Does the game wait for seats' words for the seed (herald-entropy(1))?
 * Only before its first action, while an Entropy<n> tag is missing. */
static int awaits_entropy(const hg_game_record *rec, size_t actions, size_t seats)
{
	if (actions)
		return 0;
	for (size_t i = 1; i <= seats; i++) {
		char tag[32];
		snprintf(tag, sizeof tag, "Entropy%zu", i);
		if (!hg_record_tag_value(rec, tag))
			return 1;
	}
	return 0;
}

/* Did a call run out of memory (its diagnostics say so, or some of them
 * were lost)? */
static int ran_out(const hg_diags *d)
{
	return hg_diags_lost(d) || cli_ran_out_of_memory(d);
}

/* An action held pending (herald-move(1), PENDING ACTIONS): what is
 * declared, the cards face down counted, whose answers are awaited, and
 * the seat's steps when it is one of them. */
static int pending_report(const hg_game_class *cls, const hg_state *st, const hg_pending *p,
			  const char *seat_name, hg_buf *text)
{
	hg_buf_putc(text, '\n');
	hg_pending_summary(p, text);
	if (!hg_pending_awaits(p, seat_name)) {
		hg_buf_puts(text, "You have nothing to do now.\n");
		return 0;
	}
	hg_buf steps, list;
	hg_buf_init(&steps);
	hg_buf_init(&list);
	/* (pending_steps has no reporting counterpart: its buffer says) */
	cls->pending_steps(st, p, seat_name, &steps);
	size_t n = 0;
	const char *at = steps.data ? steps.data : "";
	for (const char *nl; (nl = strchr(at, '\n')) != NULL; at = nl + 1, n++)
		hg_buf_printf(&list, "  %.*s\n", (int)(nl - at), at);
	/* the steps as the seat's legal actions: one of them, or several
	 * responses and castles in one step (herald-move(1)) */
	int rc = hg_buf_failed(&steps) || hg_buf_failed(&list) ? HG_ENOMEM : 0;
	hg_buf_printf(text, "Your legal actions (%zu):\n%s", n, list.data ? list.data : "");
	hg_buf_free(&steps);
	hg_buf_free(&list);
	return rc;
}

/* The seat's report, from its view alone: the actions of the view from
 * the `since`-th on, the position, whose turn it is and the seat's legal
 * choices (or the result); the view's HGN into view_hgn.  0; -1 when no
 * view could be made; HG_ENOMEM when memory ran out (the report is not
 * whole, and is never sent). */
static int seat_report(judge_ctx *c, const hg_game_record *master, const char *seat_name,
		       size_t seats, size_t since, hg_buf *text, hg_buf *view_hgn)
{
	hg_pending held;
	hg_diags d;
	hg_diags_init(&d);
	unsigned seat;
	hg_game_record *view = NULL;
	if (hg_view_seat(c->session, master, seat_name, &seat, &d) == 0)
		view = hg_view_record(c->session, master, seat, &d);
	if (!view) {
		int rc = ran_out(&d) ? HG_ENOMEM : -1;
		hg_diags_free(&d);
		return rc;
	}
	hg_diags_clear(&d);
	int rc = 0;
	size_t k = 0;
	int header = 0;
	for (size_t i = 0; i < view->moves.n; i++) {
		const hg_node *nd = &view->moves.nodes[i];
		if (nd->kind != HG_NODE_ACTION)
			continue;
		if (k++ < since)
			continue;
		if (!header) {
			hg_buf_puts(text, "New actions:\n");
			header = 1;
		}
		hg_buf_printf(text, "  %s: %s\n", nd->action.seat ? nd->action.seat : "",
			      nd->action.text ? nd->action.text : "");
	}
	if (header)
		hg_buf_putc(text, '\n');
	int waiting = awaits_entropy(view, k, seats);
	int held_rc = 0;
	hg_state *st = NULL;
	const hg_game_class *cls = NULL;
	hg_check_game(c->session, view, &d, NULL, NULL, &st, &cls);
	if (ran_out(&d))
		rc = HG_ENOMEM;
	if (st && cls && rc == 0) {
		hg_buf_printf(text, "Your view, as %s:\n", seat_name);
		hg_buf pic;
		hg_buf_init(&pic);
		if (hg_render_position(cls, st, &pic) != 0)
			rc = HG_ENOMEM;
		if (pic.data)
			hg_buf_puts(text, pic.data);
		if (pic.len && pic.data[pic.len - 1] != '\n')
			hg_buf_putc(text, '\n');
		hg_buf_free(&pic);
		hg_buf ending;
		hg_buf_init(&ending);
		const char *result = cls->result(st);
		const char *declared = hg_record_tag_value(master, "Result");
		if (!result && declared && strcmp(declared, "*") != 0)
			result = declared;
		if (result) {
			hg_buf_printf(text, "\nThe game is over: %s", result);
			if (hg_record_ending(master, &ending))
				hg_buf_printf(text, " (%s)", ending.data ? ending.data : "");
			if (hg_buf_failed(&ending))
				rc = HG_ENOMEM;
			hg_buf_putc(text, '\n');
		} else if (cls->pending_steps && (held_rc = hg_pending_from_tags(view, &held)) == 1) {
			if (pending_report(cls, st, &held, seat_name, text) != 0)
				rc = HG_ENOMEM;
			hg_pending_free(&held);
		} else if (held_rc == HG_ENOMEM) {
			rc = HG_ENOMEM;
		} else {
			const char *to_move = cls->to_move(st);
			if (waiting)
				hg_buf_puts(text, "\nThe first deal waits for the seats' words for the seed: "
					    "send 'entropy WORD' (a word of your choosing) if you have not.\n");
			else
				hg_buf_printf(text, "\nTo move: %s\n", to_move ? to_move : "?");
			hg_action_list legal = { 0 };
			if (hg_legal_actions(cls, st, &legal) != 0)
				rc = HG_ENOMEM;
			hg_buf who, body, list;
			hg_buf_init(&who);
			hg_buf_init(&body);
			hg_buf_init(&list);
			size_t mine = 0;
			for (size_t i = 0; i < legal.n; i++) {
				hg_buf_clear(&who);
				hg_buf_clear(&body);
				/* (format has no reporting counterpart: its
				 * buffers say) */
				cls->format(st, legal.v[i], &who, &body);
				if (hg_buf_failed(&who) || hg_buf_failed(&body))
					rc = HG_ENOMEM;
				/* the seat's own choices: not what chance decides,
				 * nor an action that is wholly herald's (a deal) */
				const char *b = body.data ? body.data : "";
				if (who.data && strcmp(who.data, seat_name) == 0 &&
				    !cls->names_chance(st, legal.v[i]) &&
				    (!cls->chance_split || cls->chance_split(st, seat_name, b) > 0)) {
					if (mine < JUDGE_MAX_LEGAL_SHOWN)
						hg_buf_printf(&list, "  %s\n", body.data ? body.data : "");
					mine++;
				}
				cls->free_action(legal.v[i]);
			}
			free(legal.v);
			if (hg_buf_failed(&list))
				rc = HG_ENOMEM;
			if (waiting) {
				/* nothing to choose before the deal */
			} else if (mine) {
				hg_buf_printf(text, "Your legal actions (%zu):\n%s", mine,
					      list.data ? list.data : "");
				if (mine > JUDGE_MAX_LEGAL_SHOWN)
					hg_buf_printf(text, "  ... and %zu more\n", mine - JUDGE_MAX_LEGAL_SHOWN);
			} else {
				hg_buf_puts(text, "You have nothing to do now.\n");
			}
			hg_buf_free(&who);
			hg_buf_free(&body);
			hg_buf_free(&list);
		}
		hg_buf_free(&ending);
		cls->free_state(st);
	}
	if (rc == 0 && hg_write_hgn(view, view_hgn) != 0)
		rc = HG_ENOMEM;
	if (hg_buf_failed(text) || hg_buf_failed(view_hgn))
		rc = HG_ENOMEM;
	hg_record_free(view);
	hg_diags_free(&d);
	return rc;
}

/* Queues a message (judge_queue); short of memory, notes it in c and
 * returns HG_ENOMEM. */
static int queue(judge_ctx *c, const judge_message *msg)
{
	if (judge_queue(c->box, msg) == 0)
		return 0;
	c->out_of_memory = 1;
	return HG_ENOMEM;
}

/* Queues a seat its report, under `intro` (may be NULL): 0, or HG_ENOMEM
 * (noted in c; nothing queued). */
static int send_seat(judge_ctx *c, const judge_game *g, const hg_game_record *master,
		     const judge_player *p, size_t since, const char *what, const char *intro,
		     const judge_mail *answered)
{
	hg_buf text, hgn, subject, name;
	hg_buf_init(&text);
	hg_buf_init(&hgn);
	hg_buf_init(&subject);
	hg_buf_init(&name);
	if (intro)
		hg_buf_printf(&text, "%s\n", intro);
	int rc = seat_report(c, master, p->seat, g->nplayers, since, &text, &hgn);
	if (rc == HG_ENOMEM) {
		c->out_of_memory = 1;
	} else if (rc != 0) {
		hg_buf_puts(&text, "(herald could not make your view of the game: tell the organiser)\n");
		/* the result is public: it is said without a view */
		const char *declared = hg_record_tag_value(master, "Result");
		if (declared && strcmp(declared, "*") != 0) {
			hg_buf ending;
			hg_buf_init(&ending);
			hg_buf_printf(&text, "\nThe game is over: %s", declared);
			if (hg_record_ending(master, &ending))
				hg_buf_printf(&text, " (%s)", ending.data ? ending.data : "");
			hg_buf_putc(&text, '\n');
			if (hg_buf_failed(&ending))
				c->out_of_memory = 1;
			hg_buf_free(&ending);
		}
	}
	hg_buf_printf(&text, "\nAnswer with your commands; the subject must keep [%s].\n", g->id);
	hg_buf_printf(&subject, "[%s] %s", g->id, what);
	hg_buf_printf(&name, "%s-%s.hgn", g->id, p->seat);
	judge_message msg = {
		.to = p->addr, .subject = subject.data, .body = text.data,
		.in_reply_to = answered ? answered->message_id : NULL,
		.references = answered ? answered->references : NULL,
		.attachment = rc == 0 ? hgn.data : NULL, .attachment_name = name.data,
	};
	int sent = HG_ENOMEM;
	if (c->out_of_memory || hg_buf_failed(&text) || hg_buf_failed(&hgn) ||
	    hg_buf_failed(&subject) || hg_buf_failed(&name))
		c->out_of_memory = 1;	/* a report not whole is never sent */
	else
		sent = queue(c, &msg);
	hg_buf_free(&text);
	hg_buf_free(&hgn);
	hg_buf_free(&subject);
	hg_buf_free(&name);
	return sent;
}

/* Queues a reply that is no game's report (a refusal, help), made in
 * `body` (checked here) under `subject`: 0, or HG_ENOMEM (noted in c). */
static int send_plain(judge_ctx *c, const char *to, const char *subject, const hg_buf *body,
		      const judge_mail *answered)
{
	if (c->out_of_memory || hg_buf_failed(body)) {
		c->out_of_memory = 1;
		return HG_ENOMEM;
	}
	judge_message msg = {
		.to = to, .subject = subject, .body = body->data,
		.in_reply_to = answered ? answered->message_id : NULL,
		.references = answered ? answered->references : NULL,
	};
	return queue(c, &msg);
}

/* ------------------------------------------------------------------------
 * The game's state around a change.
 * ------------------------------------------------------------------------ */

/* Is the master record's game over (its rules, or another ending)?  When
 * not, *to_move gets the seat to move (malloc'd) if to_move is given.
 * Short of memory, notes it in c (and says 0). */
static int game_over(judge_ctx *c, const hg_game_record *rec, char **to_move)
{
	const char *declared = hg_record_tag_value(rec, "Result");
	if (declared && strcmp(declared, "*") != 0)
		return 1;
	hg_diags d;
	hg_diags_init(&d);
	hg_state *st = NULL;
	const hg_game_class *cls = NULL;
	hg_check_game(c->session, rec, &d, NULL, NULL, &st, &cls);
	int over = 0;
	if (ran_out(&d))
		c->out_of_memory = 1;
	if (st && cls && !c->out_of_memory) {
		over = cls->result(st) != NULL;
		hg_pending held;
		int pending = over || !to_move ? 0 : hg_pending_from_tags(rec, &held);
		const char *seat = NULL;
		if (pending == HG_ENOMEM) {
			c->out_of_memory = 1;
		} else if (pending == 1) {
			/* the first seat whose answer the pending action awaits */
			seat = held.nawaited ? held.awaited[0] : NULL;
		} else if (!over && to_move) {
			seat = cls->to_move(st);
		}
		if (seat && !(*to_move = strdup(seat)))
			c->out_of_memory = 1;
		if (pending == 1)
			hg_pending_free(&held);
	}
	if (st)
		cls->free_state(st);
	hg_diags_free(&d);
	return over;
}

static void diags_text(const hg_diags *d, hg_buf *out)
{
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].severity == HG_ERROR)
			hg_diag_format(&d->v[i], out, 0);
}

/* ------------------------------------------------------------------------
 * One message to a game.
 * ------------------------------------------------------------------------ */

typedef struct run {
	judge_ctx *c;
	judge_game *g;
	judge_player *p;
	hg_master *m;
	hg_buf done;		/* what was done, for the sender and the log */
	hg_buf refused;		/* why the rest was not, or empty */
	int changed;		/* the record was rewritten */
	int notify_all;		/* the other seats hear of it (a draw offer too) */
} run;

static int word_is(const char *line, const char *word, const char **rest)
{
	size_t n = strlen(word);
	if (strncasecmp(line, word, n) != 0 || (line[n] && line[n] != ' '))
		return 0;
	if (rest) {
		*rest = line + n;
		while (**rest == ' ')
			(*rest)++;
	}
	return 1;
}

static int play(run *r, const char *action)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_buf told;
	hg_buf_init(&told);
	int rc = hg_master_move(r->m, r->p->seat, action, -1, &told, &d);
	if (rc == HG_ENOMEM || ran_out(&d)) {
		r->c->out_of_memory = 1;	/* (no refusal: nothing was written) */
		rc = HG_ENOMEM;
	} else if (rc == 0) {
		hg_buf_printf(&r->done, "  played: %s\n", action);
		r->changed = r->notify_all = 1;
		if (r->g->draw_offer) {
			free(r->g->draw_offer);	/* a move withdraws the offer */
			r->g->draw_offer = NULL;
		}
	} else {
		hg_buf_printf(&r->refused, "refused: %s\n", action);
		diags_text(&d, &r->refused);
	}
	hg_buf_free(&told);
	hg_diags_free(&d);
	return rc;
}

/* The seat's word for the seed, before the first deal. */
static int entropy_command(run *r, const char *word)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_buf told;
	hg_buf_init(&told);
	int rc = hg_master_entropy(r->m, r->p->seat, word, &told, &d);
	if (rc == HG_ENOMEM || ran_out(&d)) {
		r->c->out_of_memory = 1;
		rc = HG_ENOMEM;
	} else if (rc == 0) {
		hg_buf_puts(&r->done, "  gave your word for the seed\n");
		r->changed = r->notify_all = 1;
	} else {
		hg_buf_puts(&r->refused, "refused: entropy\n");
		diags_text(&d, &r->refused);
	}
	hg_buf_free(&told);
	hg_diags_free(&d);
	return rc;
}

/* The seats, in seat order, joined by ", " (an agreement's result). */
static void all_seats(const judge_game *g, hg_buf *out)
{
	for (size_t i = 0; i < g->nplayers; i++)
		hg_buf_printf(out, "%s%s", i ? ", " : "", g->players[i].seat);
}

/* Does the offer list "A,B" hold seat? */
static int offer_has(const char *offer, const char *seat)
{
	size_t n = strlen(seat);
	for (const char *p = offer; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if (len == n && strncmp(p, seat, n) == 0)
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

static int draw_command(run *r, int accept)
{
	judge_game *g = r->g;
	if (!accept) {	/* an offer */
		if (!g->draw_offer) {
			g->draw_offer = cli_xstrdup(r->p->seat);
		} else if (!offer_has(g->draw_offer, r->p->seat)) {
			accept = 1;	/* offering into a standing offer accepts it */
		}
		if (!accept) {
			hg_buf_printf(&r->done, "  offered a draw\n");
			r->notify_all = 1;
			return 0;
		}
	}
	if (!g->draw_offer) {
		hg_buf_puts(&r->refused, "refused: accept: no draw offer stands\n");
		return -1;
	}
	if (!offer_has(g->draw_offer, r->p->seat)) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_printf(&b, "%s,%s", g->draw_offer, r->p->seat);
		free(g->draw_offer);
		g->draw_offer = hg_buf_steal(&b);
	}
	size_t agreed = 0;
	for (size_t i = 0; i < g->nplayers; i++)
		agreed += offer_has(g->draw_offer, g->players[i].seat);
	hg_buf_printf(&r->done, "  accepted the draw offer\n");
	r->notify_all = 1;
	if (agreed < g->nplayers)
		return 0;
	hg_buf result;
	hg_buf_init(&result);
	all_seats(g, &result);
	hg_diags d;
	hg_diags_init(&d);
	int rc = hg_buf_failed(&result) ? HG_ENOMEM
		: hg_master_end(r->m, HG_END_AGREEMENT, result.data, NULL, "agreed by e-mail", &d);
	if (rc == HG_ENOMEM || ran_out(&d)) {
		r->c->out_of_memory = 1;
		rc = HG_ENOMEM;
	} else if (rc == 0) {
		hg_buf_printf(&r->done, "  the game ends by agreement: %s\n", result.data);
		r->changed = 1;
		free(g->draw_offer);
		g->draw_offer = NULL;
	} else {
		hg_buf_puts(&r->refused, "refused: the draw\n");
		diags_text(&d, &r->refused);
	}
	hg_diags_free(&d);
	hg_buf_free(&result);
	return rc;
}

/* Applies the command lines in order; the first refusal stops them. */
static void apply(run *r, char **lines, size_t n, int *want_help)
{
	for (size_t i = 0; i < n; i++) {
		const char *rest;
		const char *line = lines[i];
		if (word_is(line, "token", NULL))
			continue;	/* checked before */
		if (word_is(line, "help", NULL)) {
			*want_help = 1;
		} else if (word_is(line, "view", NULL) || word_is(line, "legal", NULL)) {
			/* every reply holds the view */
		} else if (word_is(line, "set", &rest) && word_is(rest, "token", &rest)) {
			if (!*rest || strchr(rest, ' ') || strlen(rest) > 100) {
				hg_buf_puts(&r->refused, "refused: set token: one word of at most 100 bytes\n");
				return;
			}
			free(r->p->token);
			r->p->token = cli_xstrdup(rest);
			hg_buf_puts(&r->done, "  set your token: every later message of yours must hold it\n");
		} else if (strcasecmp(line, "offer draw") == 0) {
			if (draw_command(r, 0) != 0)
				return;
		} else if (strcasecmp(line, "accept") == 0 || strcasecmp(line, "accept draw") == 0) {
			if (draw_command(r, 1) != 0)
				return;
		} else if (strcasecmp(line, "decline") == 0 || strcasecmp(line, "decline draw") == 0) {
			if (!r->g->draw_offer) {
				hg_buf_puts(&r->refused, "refused: decline: no draw offer stands\n");
				return;
			}
			free(r->g->draw_offer);
			r->g->draw_offer = NULL;
			hg_buf_puts(&r->done, "  declined the draw offer\n");
			r->notify_all = 1;
		} else if (word_is(line, "entropy", &rest)) {
			if (entropy_command(r, rest) != 0)
				return;
		} else if (strcasecmp(line, "resign") == 0) {
			if (play(r, "resign") != 0)
				return;
		} else if (play(r, line) != 0) {
			return;
		}
	}
}

/* The sender's token, when the player has one: 1 when a `token` line
 * gives it. */
static int token_ok(const judge_player *p, char **lines, size_t n)
{
	if (!p->token)
		return 1;
	for (size_t i = 0; i < n; i++) {
		const char *rest;
		if (word_is(lines[i], "token", &rest) && strcmp(rest, p->token) == 0)
			return 1;
	}
	return 0;
}

/* The log's entry for a message, into b (check hg_buf_failed). */
static void entry_text(time_t now, const judge_mail *m, const char *who, char **lines, size_t n,
		       const char *outcome, hg_buf *b)
{
	char date[32];
	iso_date(now, date);
	hg_buf_printf(b, "%s message <%s> from %s%s%s: ", date,
		      m->message_id ? m->message_id : "", m->from ? m->from : "(none)",
		      who ? " seat " : "", who ? who : "");
	/* the outcome's first line on the entry's line, the rest indented */
	for (const char *o = outcome; *o; o++) {
		hg_buf_putc(b, *o);
		if (*o == '\n' && o[1])
			hg_buf_puts(b, "  = ");
	}
	if (!b->len || b->data[b->len - 1] != '\n')
		hg_buf_putc(b, '\n');
	for (size_t i = 0; i < n; i++) {
		if (word_is(lines[i], "token", NULL) || word_is(lines[i], "set", NULL))
			hg_buf_puts(b, "  > (token line)\n");	/* never logged in clear */
		else
			hg_buf_printf(b, "  > %s\n", lines[i]);
	}
}

/* Logs a message's entry; short of memory, notes it in c and logs
 * nothing. */
static void log_entry(judge_ctx *c, const judge_game *g, const judge_mail *m, const char *who,
		      char **lines, size_t n, const char *outcome)
{
	hg_buf b;
	hg_buf_init(&b);
	entry_text(c->now, m, who, lines, n, outcome, &b);
	if (hg_buf_failed(&b))
		c->out_of_memory = 1;
	else
		judge_game_log(g, b.data);
	hg_buf_free(&b);
}

/* Sends every seat but the sender the news, and the sender its reply. */
static int tell_seats(judge_ctx *c, judge_game *g, const hg_game_record *rec, const judge_player *sender,
		      size_t since, const char *sender_text, const judge_mail *m, int notify_all,
		      const char *news)
{
	int over = game_over(c, rec, NULL);
	int rc = 0;
	for (size_t i = 0; i < g->nplayers; i++) {
		const judge_player *p = &g->players[i];
		if (p == sender) {
			if (send_seat(c, g, rec, p, since, over ? "game over" : "your move was read",
				      sender_text, m) != 0)
				rc = -1;
		} else if (notify_all) {
			hg_buf intro;
			hg_buf_init(&intro);
			if (news)
				hg_buf_puts(&intro, news);
			else
				hg_buf_printf(&intro, "%s (%s) wrote to the game.", sender->seat, sender->addr);
			if (g->draw_offer && !offer_has(g->draw_offer, p->seat))
				hg_buf_printf(&intro, "\nA draw offer stands (from %s): answer 'accept' or 'decline'.",
					      g->draw_offer);
			if (hg_buf_failed(&intro))
				c->out_of_memory = 1;	/* (send_seat then sends nothing) */
			if (send_seat(c, g, rec, p, since, over ? "game over" : "the game goes on",
				      intro.data, NULL) != 0)
				rc = -1;
			hg_buf_free(&intro);
		}
	}
	return rc;
}

/* Publishes the seed once the game is over. */
static void reveal_if_over(judge_ctx *c, hg_master *m)
{
	const hg_game_record *rec = hg_master_record(m);
	if (!game_over(c, rec, NULL) || hg_record_tag_value(rec, "SeedReveal"))
		return;
	hg_diags d;
	hg_diags_init(&d);
	if (hg_master_reveal(m, &d) == HG_ENOMEM || ran_out(&d))
		c->out_of_memory = 1;
	hg_diags_free(&d);
}

/* Arms c's undo with the record's bytes as they were (before), or
 * disarms it (before NULL). */
static void arm_undo(judge_ctx *c, const char *record, const hg_buf *before)
{
	if (!c->undo)
		return;
	c->undo->record[0] = '\0';
	if (!before || strlen(record) + 8 > sizeof c->undo->temp)
		return;
	snprintf(c->undo->temp, sizeof c->undo->temp, "%s.undo", record);
	c->undo->data = before->data ? before->data : "";
	c->undo->len = before->len;
	snprintf(c->undo->record, sizeof c->undo->record, "%s", record);
}

/* The whole file at path into out: 0, -1 with errno set, or HG_ENOMEM. */
static int read_whole(const char *path, hg_buf *out)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return errno == ENOMEM ? HG_ENOMEM : -1;
	char chunk[8192];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		hg_buf_putn(out, chunk, got);
	int bad = ferror(f);
	fclose(f);
	if (hg_buf_failed(out))
		return HG_ENOMEM;
	return bad ? -1 : 0;
}

/* A file of the game's directory, whole, into out: 0, -1, or HG_ENOMEM. */
static int game_file(const judge_game *g, const char *name, hg_buf *out)
{
	hg_buf path;
	hg_buf_init(&path);
	hg_buf_printf(&path, "%s/%s", g->dir, name);
	int rc = hg_buf_failed(&path) ? HG_ENOMEM : read_whole(path.data, out);
	hg_buf_free(&path);
	return rc;
}

/* Writes a file of the game's directory back as it was (read by
 * game_file); says so when it cannot. */
static void put_back(const judge_game *g, const char *name, const hg_buf *was)
{
	hg_buf path;
	hg_buf_init(&path);
	hg_buf_printf(&path, "%s/%s", g->dir, name);
	if (hg_buf_failed(&path) ||
	    hg_write_file_atomic(path.data, was->data ? was->data : "", was->len) != 0)
		fprintf(stderr, "herald judge: cannot put %s/%s back as it was\n", g->dir, name);
	hg_buf_free(&path);
}

static int handle_game(judge_ctx *c, const judge_mail *m, const char *id, char **lines, size_t n,
		       int *keep)
{
	judge_game g;
	hg_buf text;
	hg_buf_init(&text);
	if (judge_game_open(c->games, id, &g) != 0) {
		judge_game_close(&g);
		hg_buf_printf(&text, "herald judge: there is no game [%s] here; nothing was changed.\n"
			      "Send 'help' (with no id in the subject) for the commands.\n", id);
		*keep = 1;
		int rc = send_plain(c, m->from, "herald judge: unknown game", &text, m);
		hg_buf_free(&text);
		return rc;
	}
	int rc = 0;
	judge_player *p = judge_game_player_by_addr(&g, m->from);
	if (m->message_id && judge_game_seen(&g, m->message_id)) {
		/* delivered twice: applied once, and not answered again */
		log_entry(c, &g, m, p ? p->seat : NULL, NULL, 0, "refused: a message already handled\n");
		goto out;
	}
	if (!p) {
		hg_buf_printf(&text, "herald judge: %s is not a player of game [%s]; nothing was changed.\n"
			      "Replies go to the addresses the game was started with.\n", m->from, g.id);
		log_entry(c, &g, m, NULL, lines, n, "refused: not a player of this game\n");
		*keep = 1;
		hg_buf subject;
		hg_buf_init(&subject);
		hg_buf_printf(&subject, "[%s] not a player", g.id);
		if (hg_buf_failed(&subject))
			c->out_of_memory = 1;
		rc = send_plain(c, m->from, subject.data, &text, m);
		hg_buf_free(&subject);
		goto out;
	}
	if (!token_ok(p, lines, n)) {
		hg_buf_printf(&text, "herald judge: your message to [%s] lacks your token (a line 'token WORD');\n"
			      "nothing was changed.\n", g.id);
		log_entry(c, &g, m, p->seat, lines, n, "refused: no or wrong token\n");
		*keep = 1;
		hg_buf subject;
		hg_buf_init(&subject);
		hg_buf_printf(&subject, "[%s] token missing", g.id);
		if (hg_buf_failed(&subject))
			c->out_of_memory = 1;
		rc = send_plain(c, m->from, subject.data, &text, m);
		hg_buf_free(&subject);
		goto out;
	}
	hg_diags d;
	hg_diags_init(&d);
	hg_master *master = hg_master_open(c->session, g.record, NULL, 1, &d);
	if (!master && ran_out(&d)) {
		c->out_of_memory = 1;
		*keep = 1;
		hg_diags_free(&d);
		rc = HG_ENOMEM;
		goto out;
	}
	if (!master) {
		hg_buf t;
		hg_buf_init(&t);
		diags_text(&d, &t);
		fprintf(stderr, "herald judge: cannot open the game %s:\n%s", g.record, t.data ? t.data : "");
		hg_buf_free(&t);
		hg_diags_free(&d);
		rc = -1;
		goto out;
	}
	hg_diags_free(&d);
	/* The record as it was, put back should memory run out once a change
	 * is written: a message is applied whole, or not at all. */
	hg_buf before;
	hg_buf_init(&before);
	int read = read_whole(g.record, &before);
	if (read != 0) {
		if (read == HG_ENOMEM)
			c->out_of_memory = 1;
		else
			fprintf(stderr, "herald judge: cannot read the game %s: %s\n", g.record,
				strerror(errno));
		hg_buf_free(&before);
		hg_master_close(master);
		rc = read == HG_ENOMEM ? HG_ENOMEM : -1;
		goto out;
	}
	arm_undo(c, g.record, &before);
	run r = { .c = c, .g = &g, .p = p, .m = master };
	hg_buf_init(&r.done);
	hg_buf_init(&r.refused);
	size_t since = hg_master_actions(master);
	int want_help = 0;
	apply(&r, lines, n, &want_help);
	if (r.changed && !c->out_of_memory)
		reveal_if_over(c, master);
	hg_buf_puts(&text, "Your message was read.\n");
	if (r.done.len)
		hg_buf_printf(&text, "Done:\n%s", r.done.data);
	if (r.refused.len)
		hg_buf_printf(&text, "Not done (the rest of your message was not read):\n%s", r.refused.data);
	if (!n)
		hg_buf_puts(&text, "It held no command (send 'help' for them).\n");
	if (want_help)
		hg_buf_printf(&text, "\n%s", help_text);
	hg_buf outcome, entry;
	hg_buf_init(&outcome);
	hg_buf_init(&entry);
	hg_buf_printf(&outcome, "%s%s", r.done.len ? "done\n" : "nothing done\n", r.done.data ? r.done.data : "");
	if (r.refused.len)
		hg_buf_puts(&outcome, r.refused.data);
	if (!hg_buf_failed(&outcome))
		entry_text(c->now, m, p->seat, lines, n, outcome.data, &entry);
	if (hg_buf_failed(&r.done) || hg_buf_failed(&r.refused) || hg_buf_failed(&text) ||
	    hg_buf_failed(&outcome) || hg_buf_failed(&entry))
		c->out_of_memory = 1;
	/* every reply made (queued) before anything of the game is kept */
	if (!c->out_of_memory &&
	    tell_seats(c, &g, hg_master_record(master), p, since, text.data, m, r.notify_all, NULL) != 0)
		rc = -1;
	int saved = 0;
	hg_buf players_before, state_before;	/* (save may fail midway) */
	hg_buf_init(&players_before);
	hg_buf_init(&state_before);
	if (!c->out_of_memory && (game_file(&g, "players", &players_before) == HG_ENOMEM ||
				  game_file(&g, "state", &state_before) == HG_ENOMEM))
		c->out_of_memory = 1;
	if (!c->out_of_memory) {
		if (r.changed) {
			g.since = (long long)c->now;
			g.reminded = g.missed = 0;
		}
		if ((saved = judge_game_save(&g)) == HG_ENOMEM ||
		    (saved == 0 && judge_game_log(&g, entry.data) == HG_ENOMEM)) {
			c->out_of_memory = 1;
			saved = HG_ENOMEM;	/* (players and state put back) */
		}
	}
	if (c->out_of_memory) {
		if (r.changed && hg_write_file_atomic(g.record, before.data, before.len) != 0)
			fprintf(stderr, "herald judge: cannot put the game %s back as it was: %s\n",
				g.record, strerror(errno));
		if (saved == HG_ENOMEM)
			put_back(&g, "players", &players_before);
		if (saved == HG_ENOMEM)
			put_back(&g, "state", &state_before);
		*keep = 1;
		rc = HG_ENOMEM;
	} else if (saved != 0) {
		rc = -1;
		judge_game_log(&g, entry.data);
	}
	arm_undo(c, g.record, NULL);
	hg_buf_free(&players_before);
	hg_buf_free(&state_before);
	hg_buf_free(&outcome);
	hg_buf_free(&entry);
	hg_buf_free(&before);
	hg_master_close(master);
	hg_buf_free(&r.done);
	hg_buf_free(&r.refused);
out:
	judge_game_close(&g);
	hg_buf_free(&text);
	return rc;
}

/* ------------------------------------------------------------------------
 * `new`: a game started by mail.
 * ------------------------------------------------------------------------ */

static int address_ok(const char *a)
{
	const char *at = strchr(a, '@');
	if (!at || at == a || !at[1] || strlen(a) > 254 || strchr(at + 1, '@'))
		return 0;
	for (const char *p = a; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == '<' || *p == '>' || *p == ',' || *p == ';' ||
		    *p == '"' || (unsigned char)*p >= 0x7f)
			return 0;
	return 1;
}

#define JUDGE_MAX_SEATS 8

/* Removes a game directory just made, with its files. */
static void unmake_game(const judge_game *g)
{
	static const char *const files[] = { "game.hgn.key", "game.hgn", "players", "state", "log", "lock" };
	char path[4096];
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", g->dir, files[i]);
		unlink(path);
	}
	rmdir(g->dir);
}

static int new_game(judge_ctx *c, const judge_mail *m, const char *args, char **lines, size_t n,
		    int *keep)
{
	char *copy = cli_xstrdup(args);
	char *words[JUDGE_MAX_SEATS + 8];
	size_t nw = 0;
	char *save = NULL;
	for (char *w = strtok_r(copy, " ", &save); w && nw < sizeof words / sizeof words[0];
	     w = strtok_r(NULL, " ", &save))
		words[nw++] = w;
	hg_buf why;
	hg_buf_init(&why);
	const char *game = nw ? words[0] : NULL, *variant = NULL, *entropy_word = NULL;
	long deadline = JUDGE_DEFAULT_DEADLINE_HOURS;
	char *addrs[JUDGE_MAX_SEATS];
	size_t na = 0;
	int sender_plays = -1;
	for (size_t i = 1; i < nw && !why.len; i++) {
		if (strncmp(words[i], "variant=", 8) == 0) {
			variant = words[i] + 8;
		} else if (strncmp(words[i], "entropy=", 8) == 0) {
			entropy_word = words[i] + 8;
		} else if (strncmp(words[i], "deadline=", 9) == 0) {
			char *end;
			deadline = strtol(words[i] + 9, &end, 10);
			if (*end || deadline < 1 || deadline > 24 * 365)
				hg_buf_printf(&why, "deadline=%s: a number of hours from 1 to 8760\n", words[i] + 9);
		} else {
			for (char *q = words[i]; *q; q++)
				if (*q >= 'A' && *q <= 'Z')
					*q = (char)(*q - 'A' + 'a');
			if (!address_ok(words[i]))
				hg_buf_printf(&why, "'%s' is not an e-mail address\n", words[i]);
			else if (na == JUDGE_MAX_SEATS)
				hg_buf_printf(&why, "at most %d players\n", JUDGE_MAX_SEATS);
			else {
				for (size_t k = 0; k < na; k++)
					if (strcmp(addrs[k], words[i]) == 0)
						hg_buf_printf(&why, "%s is named twice\n", words[i]);
				if (strcmp(words[i], m->from) == 0)
					sender_plays = (int)na;
				addrs[na++] = words[i];
			}
		}
	}
	if (hg_buf_failed(&why))
		c->out_of_memory = 1;
	if (!why.len && (!game || !judge_game_id_ok(game)))
		hg_buf_puts(&why, "new: say which game (see 'herald games'), then the players' addresses\n");
	if (!why.len && !na)
		hg_buf_puts(&why, "new: name the players' addresses, in seat order\n");
	if (!why.len && sender_plays < 0)
		hg_buf_puts(&why, "new: your own address must be among the players\n");
	judge_game g;
	memset(&g, 0, sizeof g);
	g.lock_fd = -1;
	int created = 0;
	if (!why.len) {
		for (unsigned k = 1; k < 10000 && !created; k++) {
			char id[64];
			snprintf(id, sizeof id, "%.30s-%u", game, k);
			judge_game_close(&g);
			if (judge_game_create(c->games, id, &g) == 0)
				created = 1;
			else if (errno != EEXIST)
				break;
		}
		if (!created) {
			fprintf(stderr, "herald judge: cannot make a game directory in %s: %s\n", c->games,
				strerror(errno));
			judge_game_close(&g);
			free(copy);
			hg_buf_free(&why);
			return -1;
		}
	}
	hg_game_record *rec = NULL;
	char secret[HG_FAIR_HEX_LEN + 1] = "";
	if (!why.len) {
		char *names[JUDGE_MAX_SEATS], *entropy[JUDGE_MAX_SEATS] = { 0 };
		for (size_t i = 0; i < na; i++)
			names[i] = cli_xstrndup(addrs[i], (size_t)(strchr(addrs[i], '@') - addrs[i]));
		if (entropy_word)
			entropy[sender_plays] = cli_xstrdup(entropy_word);
		hg_diags d;
		hg_diags_init(&d);
		char date[32];
		struct tm tm;
		gmtime_r(&c->now, &tm);
		strftime(date, sizeof date, "%Y.%m.%d", &tm);
		hg_master_new_opts o = { g.record, game, variant, date, names, na, entropy, 1 };
		rec = hg_master_new(c->session, &o, secret, &d);
		if (ran_out(&d)) {
			c->out_of_memory = 1;
			hg_record_free(rec);
			rec = NULL;
		} else if (!rec) {
			hg_buf_puts(&why, "new: herald could not start that game:\n");
			diags_text(&d, &why);
		}
		hg_diags_free(&d);
		for (size_t i = 0; i < na; i++) {
			free(names[i]);
			free(entropy[i]);
		}
	}
	int rc = 0;
	if (rec) {
		/* the seats, in the order of the players (before anything is
		 * written: memory that runs out leaves nothing of the game) */
		hg_diags d;
		hg_diags_init(&d);
		hg_state *st = NULL;
		const hg_game_class *cls = NULL;
		hg_check_game(c->session, rec, &d, NULL, NULL, &st, &cls);
		for (size_t i = 0; st && cls && cls->seat_name && i < na; i++) {
			const char *seat = cls->seat_name(st, (unsigned)i);
			if (seat)
				judge_game_add_player(&g, seat, addrs[i]);
		}
		if (st)
			cls->free_state(st);
		if (ran_out(&d))
			c->out_of_memory = 1;
		hg_diags_free(&d);
		char *key = hg_master_key_path(g.record);
		hg_buf hgn;
		hg_buf_init(&hgn);
		if (c->out_of_memory || !key || hg_write_hgn(rec, &hgn) != 0 || hg_buf_failed(&hgn)) {
			c->out_of_memory = 1;	/* (a game cut short is never written) */
			rc = HG_ENOMEM;
		} else if (g.nplayers != na) {
			hg_buf_puts(&why, "new: the game does not have a seat for each address\n");
			rc = -1;
		} else if (hg_master_key_create(key, secret) != 0 ||
			   hg_write_file_atomic(g.record, hgn.data, hgn.len) != 0) {
			fprintf(stderr, "herald judge: cannot write the game %s: %s\n", g.record, strerror(errno));
			rc = -1;
		}
		free(key);
		hg_buf_free(&hgn);
	}
	memset(secret, 0, sizeof secret);
	if (rc == 0 && !why.len) {
		g.deadline_hours = deadline;
		g.since = (long long)c->now;
		int saved = judge_game_save(&g);
		if (saved == HG_ENOMEM)
			c->out_of_memory = 1;
		else if (saved != 0)
			rc = -1;
		hg_buf outcome;
		hg_buf_init(&outcome);
		hg_buf_printf(&outcome, "new game [%s]\n", g.id);
		log_entry(c, &g, m, NULL, lines, n, outcome.data);
		hg_buf_free(&outcome);
		for (size_t i = 0; i < g.nplayers; i++) {
			hg_buf intro;
			hg_buf_init(&intro);
			hg_buf_printf(&intro, "A new game [%s] of %s, started by %s.\nYou are %s. "
				      "Each seat has %ld hours for each move; after %d missed deadlines "
				      "in a row, the seat to move forfeits.\n",
				      g.id, hg_record_tag_value(rec, "Game"), m->from, g.players[i].seat,
				      g.deadline_hours, JUDGE_FORFEIT_AFTER);
			if (hg_buf_failed(&intro))
				c->out_of_memory = 1;
			if (send_seat(c, &g, rec, &g.players[i], 0, "a new game", intro.data,
				      g.players[i].addr == addrs[sender_plays] ? m : NULL) != 0)
				rc = -1;
			hg_buf_free(&intro);
		}
	} else if (why.len && !c->out_of_memory) {
		if (created)
			unmake_game(&g);	/* nothing of a game that did not start is left */
		hg_buf text;
		hg_buf_init(&text);
		hg_buf_printf(&text, "herald judge: no game was started.\n%s\n%s", why.data, help_text);
		*keep = 1;
		rc = send_plain(c, m->from, "herald judge: no new game", &text, m);
		hg_buf_free(&text);
	}
	if (c->out_of_memory) {
		if (created)
			unmake_game(&g);	/* nothing of it is kept: a rerun starts it */
		rc = HG_ENOMEM;
	}
	hg_record_free(rec);
	judge_game_close(&g);
	free(copy);
	hg_buf_free(&why);
	return rc;
}

/* ------------------------------------------------------------------------
 * Entry points.
 * ------------------------------------------------------------------------ */

static int handle(judge_ctx *c, const judge_mail *m, int *keep)
{
	*keep = 0;
	if (m->automatic || !m->from) {
		*keep = 1;	/* never answered: no loop with another robot */
		return 0;
	}
	if (m->problem != JUDGE_MAIL_OK) {
		hg_buf text;
		hg_buf_init(&text);
		hg_buf_printf(&text, "herald judge: your message was not read: %s.\n",
			      judge_mail_problem_text(m->problem));
		if (m->detail)
			hg_buf_printf(&text, "(%s)\n", m->detail);
		hg_buf_puts(&text, "Nothing was changed; send your commands as plain text.\n");
		*keep = 1;
		int rc = send_plain(c, m->from, "herald judge: message not read", &text, m);
		hg_buf_free(&text);
		return rc;
	}
	char **lines = NULL;
	size_t n = judge_body_commands(m->text, &lines);
	char *id = judge_subject_game(m->subject);
	int rc;
	const char *rest;
	if (id) {
		rc = handle_game(c, m, id, lines, n, keep);
	} else if (n && word_is(lines[0], "new", &rest)) {
		rc = new_game(c, m, rest, lines, n, keep);
	} else {
		hg_buf text;
		hg_buf_init(&text);
		int help = n && word_is(lines[0], "help", NULL);
		if (!help) {
			hg_buf_puts(&text, "herald judge: the subject names no game (an id in brackets, such as\n"
				    "\"[encrucijada-1]\"); nothing was changed.\n\n");
			*keep = 1;
		}
		hg_buf_puts(&text, help_text);
		rc = send_plain(c, m->from, help ? "herald judge: help" : "herald judge: which game?",
				&text, m);
		hg_buf_free(&text);
	}
	free(id);
	hg_strv_free(lines, n);
	return rc;
}

int judge_handle(judge_ctx *c, const judge_mail *m, int *keep)
{
	int rc = handle(c, m, keep);
	if (c->out_of_memory) {
		/* nothing half-done goes out; the message waits for a rerun */
		judge_discard(c->box);
		*keep = 1;
		return HG_ENOMEM;
	}
	if (judge_flush(c->box) != 0)
		rc = -1;
	return rc;
}

/* One game's deadline: a reminder for each passed deadline, a forfeit at
 * the JUDGE_FORFEIT_AFTER-th. */
static int tick_game(judge_ctx *c, const char *id)
{
	judge_game g;
	if (judge_game_open(c->games, id, &g) != 0) {
		judge_game_close(&g);
		return 0;
	}
	int rc = 0;
	hg_diags d;
	hg_diags_init(&d);
	hg_master *m = hg_master_open(c->session, g.record, NULL, 1, &d);
	char *to_move = NULL;
	hg_buf before;
	hg_buf_init(&before);
	int changed = 0;
	if (!m && ran_out(&d))
		c->out_of_memory = 1;
	if (!m || game_over(c, hg_master_record(m), &to_move) || !to_move || !g.since)
		goto out;
	/* the record as it was, put back should memory run out (as a message's) */
	if (read_whole(g.record, &before) != 0) {
		if (hg_buf_failed(&before))
			c->out_of_memory = 1;
		goto out;
	}
	arm_undo(c, g.record, &before);
	long long due = g.since + (long long)(g.reminded + 1) * g.deadline_hours * 3600;
	if ((long long)c->now < due)
		goto out;
	g.reminded++;
	g.missed++;
	judge_player *late = judge_game_player_by_seat(&g, to_move);
	char date[32];
	iso_date(c->now, date);
	hg_buf entry;
	hg_buf_init(&entry);
	size_t since = hg_master_actions(m);
	if (g.missed >= JUDGE_FORFEIT_AFTER && late) {
		hg_buf reason;
		hg_buf_init(&reason);
		hg_buf_printf(&reason, "missed %u deadlines of %ld hours", g.missed, g.deadline_hours);
		hg_diags_clear(&d);
		int ended = hg_buf_failed(&reason) ? HG_ENOMEM
			: hg_master_end(m, HG_END_FORFEIT, NULL, late->seat, reason.data, &d);
		if (ended == HG_ENOMEM || ran_out(&d)) {
			c->out_of_memory = 1;
		} else if (ended == 0) {
			changed = 1;
			reveal_if_over(c, m);
			hg_buf_printf(&entry, "%s tick: %s forfeits (%s)\n", date, late->seat, reason.data);
			hg_buf intro;
			hg_buf_init(&intro);
			hg_buf_printf(&intro, "%s forfeits the game: %s.", late->seat, reason.data);
			if (tell_seats(c, &g, hg_master_record(m), NULL, since, NULL, NULL, 1, intro.data) != 0)
				rc = -1;
			hg_buf_free(&intro);
		} else {
			hg_buf_printf(&entry, "%s tick: the forfeit of %s was refused\n", date, late->seat);
		}
		hg_buf_free(&reason);
	} else if (late) {
		hg_buf intro;
		hg_buf_init(&intro);
		hg_buf_printf(&intro, "Reminder: game [%s] waits for you (%s). You have missed %u of the %d "
			      "deadlines of %ld hours after which the seat to move forfeits.",
			      g.id, late->seat, g.missed, JUDGE_FORFEIT_AFTER, g.deadline_hours);
		if (send_seat(c, &g, hg_master_record(m), late, since, "reminder", intro.data, NULL) != 0)
			rc = -1;
		hg_buf_printf(&entry, "%s tick: reminder %u to %s\n", date, g.missed, late->seat);
		hg_buf_free(&intro);
	} else {
		hg_buf_printf(&entry, "%s tick: deadline passed; %s holds no player's seat\n", date, to_move);
	}
	if (hg_buf_failed(&entry))
		c->out_of_memory = 1;
	if (!c->out_of_memory) {
		judge_game_log(&g, entry.data);
		if (judge_game_save(&g) != 0)
			rc = -1;
	}
	hg_buf_free(&entry);
out:
	if (c->out_of_memory) {
		/* nothing of this game's tick is kept or sent */
		judge_discard(c->box);
		if (changed && hg_write_file_atomic(g.record, before.data, before.len) != 0)
			fprintf(stderr, "herald judge: cannot put the game %s back as it was: %s\n",
				g.record, strerror(errno));
		rc = HG_ENOMEM;
	}
	arm_undo(c, g.record, NULL);
	if (!c->out_of_memory && judge_flush(c->box) != 0)
		rc = -1;
	hg_buf_free(&before);
	free(to_move);
	if (m)
		hg_master_close(m);
	hg_diags_free(&d);
	judge_game_close(&g);
	return rc;
}

int judge_tick(judge_ctx *c)
{
	DIR *dir = opendir(c->games);
	if (!dir) {
		fprintf(stderr, "herald judge: cannot read %s: %s\n", c->games, strerror(errno));
		return -1;
	}
	/* in name order, so that a run is the same run each time */
	char **ids = NULL;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(dir)))
		if (judge_game_id_ok(e->d_name) && strcmp(e->d_name, "failed") != 0) {
			ids = cli_xrealloc(ids, (n + 1) * sizeof *ids);
			ids[n++] = cli_xstrdup(e->d_name);
		}
	closedir(dir);
	for (size_t i = 0; i + 1 < n; i++)
		for (size_t k = i + 1; k < n; k++)
			if (strcmp(ids[k], ids[i]) < 0) {
				char *t = ids[i];
				ids[i] = ids[k];
				ids[k] = t;
			}
	int rc = 0;
	for (size_t i = 0; i < n && rc != HG_ENOMEM; i++) {
		int one = tick_game(c, ids[i]);
		if (one != 0)
			rc = one;
	}
	hg_strv_free(ids, n);
	return rc;
}

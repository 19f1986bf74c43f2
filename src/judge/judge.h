/* judge.h - the e-mail judge (`herald judge`, herald-judge(1)): an
 * application on top of libherald that reads players' e-mails, applies
 * their commands to the games of a directory and writes the replies.
 *
 * The mail layer (mail-in.c, mail-out.c) is the only part that knows
 * GMime; body.c reads the commands out of plain text; gamedir.c keeps a
 * game's directory (the player list, the log, the deadline); referee.c
 * turns commands into libherald calls.  libherald itself never links
 * GMime. */
#ifndef HERALD_JUDGE_H
#define HERALD_JUDGE_H

#include <stddef.h>
#include <time.h>

#include "herald.h"
#include "cli/cli.h"	/* herald's allocators: cli_x*, cli_buf_steal (memory.c) */

/* ------------------------------------------------------------------------
 * Limits (herald-judge(1), LIMITS).  Each bounds what one message may
 * cost: memory, time or the size of a reply.
 * ------------------------------------------------------------------------ */
/* A message larger than this is not read further (kept cut short in
 * failed/, and answered). */
#define JUDGE_MAX_MESSAGE (100UL * 1024 * 1024)
/* The plain text read from one part, decoded; a longer text part is
 * skipped as an attachment would be. */
#define JUDGE_MAX_TEXT (64UL * 1024)
/* MIME nesting (a multipart or message/rfc822 inside another counts one
 * level): deeper messages are refused unread. */
#define JUDGE_MAX_DEPTH 8
/* Parts looked at in one message. */
#define JUDGE_MAX_PARTS 100
/* Command lines read from one body; the rest is ignored. */
#define JUDGE_MAX_COMMANDS 50
/* A command line longer than this (in bytes) is cut there. */
#define JUDGE_MAX_LINE 1000


/* ------------------------------------------------------------------------
 * An incoming message (mail-in.c).
 * ------------------------------------------------------------------------ */
typedef enum judge_mail_problem {
	JUDGE_MAIL_OK,
	JUDGE_MAIL_UNPARSEABLE,	/* not an RFC 5322 message */
	JUDGE_MAIL_TOO_LARGE,	/* over JUDGE_MAX_MESSAGE */
	JUDGE_MAIL_TOO_DEEP,	/* MIME nesting over JUDGE_MAX_DEPTH */
	JUDGE_MAIL_NO_TEXT,	/* no text/plain part (of at most JUDGE_MAX_TEXT) */
	JUDGE_MAIL_BAD_CHARSET	/* the text part's charset could not be read */
} judge_mail_problem;

typedef struct judge_mail {
	char *from;		/* the sender's address, lowercased; NULL: none */
	char *subject;		/* decoded (RFC 2047) to UTF-8; "" when absent */
	char *message_id;	/* without the angle brackets; NULL: none */
	char *references;	/* the References to give a reply, or NULL */
	char *text;		/* the plain text in UTF-8 (problem OK), else NULL */
	int automatic;		/* an automatic message (bounce, auto-reply): never answered */
	judge_mail_problem problem;
	char *detail;		/* what went wrong, for the reply, or NULL */
} judge_mail;

/* Starts and stops GMime (once per process). */
void judge_mail_init(void);
void judge_mail_shutdown(void);
/* Parses the message in file `path` (at most JUDGE_MAX_MESSAGE bytes are
 * looked at; `truncated`: the file holds only the message's beginning).
 * Always fills *m; m->problem says what could not be read. */
void judge_mail_read(const char *path, int truncated, judge_mail *m);
void judge_mail_free(judge_mail *m);
/* The decoded text of a problem, for the reply. */
const char *judge_mail_problem_text(judge_mail_problem p);

/* ------------------------------------------------------------------------
 * The commands of a body (body.c; no GMime).
 * ------------------------------------------------------------------------ */
/* The command lines of a plain-text body: each trimmed, without blank
 * lines, quoted lines ('>'), the signature (from a "-- " line on) and a
 * quoted message (from an "On ... wrote:" or "-----Original Message-----"
 * line on); at most JUDGE_MAX_COMMANDS of them, each cut at
 * JUDGE_MAX_LINE bytes (at a character's start).  Returns the count; *lines is malloc'd (hg_strv_free). */
size_t judge_body_commands(const char *text, char ***lines);
/* The game id in a subject: the first "[ID]" whose ID is 1 to 40 of
 * [a-z0-9-] starting with a letter or digit; malloc'd, or NULL. */
char *judge_subject_game(const char *subject);
/* Is s a game id (as judge_subject_game takes them)? */
int judge_game_id_ok(const char *s);

/* ------------------------------------------------------------------------
 * Outgoing messages (mail-out.c) and Maildirs (maildir.c).
 * ------------------------------------------------------------------------ */
/* A message composed and not yet handed over. */
typedef struct judge_queued {
	char *text;		/* the whole message */
	char *to;
} judge_queued;

typedef struct judge_outbox {
	const char *maildir;	/* --out DIR, or NULL */
	const char *sendmail;	/* the program run as `PROGRAM -t -oi`, or NULL */
	const char *from;	/* the judge's own address (From:) */
	time_t now;
	size_t sent;		/* messages written so far */
	judge_queued *queue;	/* composed, not yet handed over (judge_flush) */
	size_t nqueued;
} judge_outbox;

typedef struct judge_message {
	const char *to;		/* one address */
	const char *subject;	/* UTF-8 */
	const char *body;	/* UTF-8 text */
	const char *in_reply_to;	/* a Message-ID without brackets, or NULL */
	const char *references;	/* the References of the message answered, or NULL */
	const char *attachment;	/* a text attached as attachment_name, or NULL */
	const char *attachment_name;
} judge_message;

/* Builds the complete message and hands it over (Maildir or sendmail)
 * at once: 0, or -1 after a message on stderr. */
int judge_send(judge_outbox *box, const judge_message *msg);
/* Builds the complete message and queues it: 0, or HG_ENOMEM (nothing
 * queued).  Nothing is handed over before judge_flush, so that a run
 * short of memory midway sends nothing (herald-judge(1), EXIT STATUS). */
int judge_queue(judge_outbox *box, const judge_message *msg);
/* Hands every queued message over (Maildir or sendmail) and empties the
 * queue: 0, or -1 after a message on stderr for each that failed. */
int judge_flush(judge_outbox *box);
/* Empties the queue, sending nothing. */
void judge_discard(judge_outbox *box);
/* Writes data into the Maildir `dir` (tmp/, then new/; the directories
 * are made when missing): 0, or -1 with errno set.  *name receives the
 * file's name in new/ (malloc'd) when name is not NULL. */
int judge_maildir_deliver(const char *dir, const char *data, size_t len, char **name);
/* Creates dir and its tmp/, new/ and cur/: 0, or -1 with errno set. */
int judge_maildir_make(const char *dir);
/* Copies what fd `in` gives, to its end, into a new file of dir/tmp/ (at
 * most `max` bytes kept; *truncated when there was more): 0 with *base
 * set to its name (malloc'd), or -1 with errno set. */
int judge_maildir_spool(const char *dir, int in, size_t max, char **base, int *truncated);
/* The spooled file delivered into dir/new/ (judge_maildir_keep), or
 * removed (judge_maildir_drop). */
int judge_maildir_keep(const char *dir, const char *base);
void judge_maildir_drop(const char *dir, const char *base);

#endif

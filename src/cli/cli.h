/* cli.h - what the files of the `herald` command share.
 *
 * The command is a thin layer over libherald: it turns operands into
 * sources of records, hands the records to the library, and prints what
 * comes back.  Nothing here knows any particular game. */
#ifndef HERALD_CLI_H
#define HERALD_CLI_H

#include <getopt.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

#include <jansson.h>

#include "herald-engine.h"

/* The CLI's own texts in the user's language (herald's text domain, as
 * the library's); N_ marks a text translated where it is printed.  The
 * messages of cli_error and cli_usage_error are translated there. */
#define _(msgid) hg_gettext(msgid)
#define N_(msgid) (msgid)

/* Exit statuses shared by every subcommand (herald(1), EXIT STATUS). */
enum {
	CLI_EXIT_OK = 0,	/* all games legal, nothing wrong */
	CLI_EXIT_FAIL = 1,	/* an illegal or malformed game, or fmt --check found work */
	CLI_EXIT_USAGE = 2	/* bad usage, or a file could not be read or written */
};

/* ------------------------------------------------------------------------
 * The subcommands (cmd-*.c).  Each takes its own argv, argv[0] being the
 * subcommand's name, and returns the exit status.
 * ------------------------------------------------------------------------ */
int cli_check_main(int argc, char **argv);
int cli_fmt_main(int argc, char **argv);
int cli_convert_main(int argc, char **argv);
int cli_replay_main(int argc, char **argv);
int cli_next_main(int argc, char **argv);
int cli_view_main(int argc, char **argv);
int cli_gen_main(int argc, char **argv);
int cli_games_main(int argc, char **argv);
int cli_split_main(int argc, char **argv);
int cli_report_main(int argc, char **argv);
int cli_deck_main(int argc, char **argv);
int cli_new_main(int argc, char **argv);
int cli_move_main(int argc, char **argv);
int cli_entropy_main(int argc, char **argv);
int cli_reveal_main(int argc, char **argv);
int cli_end_main(int argc, char **argv);
int cli_select_main(int argc, char **argv);
#ifdef HAVE_GMIME
int cli_judge_main(int argc, char **argv);	/* src/judge/, herald-judge(1) */
#endif

/* ------------------------------------------------------------------------
 * Options (options.c).  Every subcommand accepts the common options;
 * --format only where the subcommand lists formats.
 * ------------------------------------------------------------------------ */
typedef enum cli_colour_mode {
	CLI_COLOUR_AUTO,	/* on a terminal, unless NO_COLOR or TERM=dumb */
	CLI_COLOUR_ALWAYS,
	CLI_COLOUR_NEVER
} cli_colour_mode;

#define CLI_MAX_ALLOWED 64	/* --allow-data-path options */

typedef struct cli_common {
	const char *data_dir;	/* --data-dir, or NULL */
	const char *allowed[CLI_MAX_ALLOWED];	/* --allow-data-path, in order */
	size_t nallowed;
	int format;		/* index into the spec's formats (0: default) */
	cli_colour_mode colour;
	int quiet;		/* -q: errors only */
} cli_common;

typedef struct cli_spec {
	const char *name;		/* "check" */
	const char *synopsis;		/* usage lines after "herald NAME ", '\n'-separated */
	const char *about;		/* --help text between usage and options */
	const char *options_help;	/* the subcommand's own options, or NULL */
	const char *const *formats;	/* --format words, default first; NULL: none */
	const char *shortopts;		/* the subcommand's own short options, or NULL */
	const struct option *longopts;	/* its own long options ({0}-ended), or NULL */
	/* Handles one of the subcommand's own options: 0, or -1 after
	 * cli_usage_error(). */
	int (*option)(void *ctx, int opt, const char *arg);
	void *ctx;
} cli_spec;

/* Parses argv against the spec and the common options.  Returns -1 when the
 * subcommand goes on with the operands argv[*first .. argc-1]; otherwise
 * the status to exit with at once (0 after --help or --version, 2 after a
 * usage error, already reported). */
int cli_parse(const cli_spec *spec, int argc, char **argv, cli_common *common,
	      int *first);
/* A session with the common options' data path (--data-dir,
 * --allow-data-path). */
hg_session *cli_session_new(const cli_common *c);
/* Prints "herald NAME: message" and the hint to try --help on stderr;
 * returns CLI_EXIT_USAGE. */
int cli_usage_error(const cli_spec *spec, const char *fmt, ...) HG_PRINTF(2, 3);
/* Parses a whole decimal number in [min, max]; 0, or -1 after a usage error
 * naming the option. */
int cli_parse_number(const cli_spec *spec, const char *option, const char *arg,
		     unsigned long min, unsigned long max, unsigned long *out);
void cli_print_version(FILE *fp);

/* ------------------------------------------------------------------------
 * Output (output.c).
 * ------------------------------------------------------------------------ */
/* "herald NAME: message\n" on stderr, for problems that are not about a
 * position in a record (bad option values, write failures); control
 * characters in the message escaped. */
void cli_error(const char *command, const char *fmt, ...) HG_PRINTF(2, 3);
/* Whether to colour what goes to fp. */
int cli_use_colour(const cli_common *common, FILE *fp);
/* Prints the diagnostics (GNU form with notes); errors_only drops warnings
 * and unverified ones. */
void cli_print_diags(FILE *fp, const hg_diags *d, int colour, int errors_only);
/* A JSON string of s; invalid UTF-8 bytes become U+FFFD, since a record
 * quoted in a message may hold anything. */
json_t *cli_json_string(const char *s);
json_t *cli_json_diag(const hg_diag *dg);
/* The reconstructed data a diagnostic rests on: [{datum, file, line}]. */
json_t *cli_json_rests_on(const hg_diag *dg);
json_t *cli_json_diags(const hg_diags *d, int errors_only);
/* Writes v (pretty-printed, or compact on one line) and a newline;
 * steals the reference. */
void cli_json_print(FILE *fp, json_t *v, int pretty);
/* "Did you mean 'a', 'b' or 'c'?" on a line (nothing when n is 0). */
void cli_print_suggestions(FILE *fp, const char *const *words, size_t n);
/* A library writer's status (hg_write_hgn and the like): HG_ENOMEM ends
 * herald with "out of memory" and status 2, as the library's abort did. */
void cli_wrote(int status);
/* Says "herald: out of memory" and exits with status 2: what herald does
 * when the library reports allocation failure (libherald(3), ALLOCATION
 * FAILURE), rather than print output cut short as if it were whole. */
void cli_out_of_memory(void) __attribute__((noreturn));
/* malloc, calloc, realloc, strdup and strndup for herald's own data:
 * never NULL, and cli_out_of_memory() short of memory (the library's
 * hg_x* abort instead). */
void *cli_xmalloc(size_t n);
void *cli_xcalloc(size_t n, size_t size);
void *cli_xrealloc(void *p, size_t n);
char *cli_xstrdup(const char *s);
char *cli_xstrndup(const char *s, size_t n);
/* cli_out_of_memory() when the buffer could not grow (hg_buf_failed), or
 * the list lost a diagnostic or note (hg_diags_lost); else nothing.
 * cli_flush_buf, cli_print_diags and cli_json_diags check theirs. */
/* The buffer's text (hg_buf_steal) when it is whole; else as cli_buf_check. */
char *cli_buf_steal(hg_buf *b);
void cli_buf_check(const hg_buf *b);
void cli_diags_check(const hg_diags *d);
/* A library call ran out of memory (HG_ENOMEM) where the command goes on
 * with the other games and reports this one with its hg.out-of-memory
 * diagnostic (check, fmt, convert, gen, replay, select): herald then says
 * "herald: out of memory" at its end and exits with status 2 (herald.c). */
void cli_note_out_of_memory(void);
int cli_out_of_memory_noted(void);
/* Does d hold hg.out-of-memory (a library call that returns NULL, such as
 * hg_view_record, says so there)? */
int cli_ran_out_of_memory(const hg_diags *d);
/* Appends a game in canonical HGN to out; games after the first are
 * preceded by the blank line that separates games.  *count counts games. */
void cli_hgn_append(hg_buf *out, const hg_game_record *g, size_t *count);
/* Writes text to fp; on a terminal, with control characters escaped
 * (hg_buf_put_visible; keep_layout: but line feed and tab), since the text
 * may come from a record or a file name.  0, or -1 with errno set. */
/* Standard input whole, at most `max` bytes (else an hgn.too-long
 * diagnostic): 0 or -1. */
int cli_read_stdin_bounded(hg_buf *out, size_t max, hg_diags *d);
int cli_put_text(FILE *fp, const char *data, size_t len, int keep_layout);
/* Writes the buffer to fp (cli_put_text, keeping the layout); 0, or -1
 * after reporting a write error. */
int cli_flush_buf(const char *command, FILE *fp, hg_buf *b);
/* Has a write to standard output failed and been reported?  A command then
 * stops writing, and the exit reports nothing more. */
int cli_stdout_failed(void);
/* Appends "path:line", or the path alone when the line is unknown (0: a
 * JSON or YAML record keeps no positions). */
void cli_put_place(hg_buf *b, const char *path, unsigned line);

/* A change a game-master command makes to an opened game: 0 when written
 * (`told` gets what to print), -1 when refused (diagnostics in d). */
typedef int (*cli_master_change)(hg_master *m, void *ctx, hg_buf *told, hg_diags *d);
/* Opens the master record `path` under its key's lock (waiting for another
 * writer when `wait`), makes the change, prints what it tells on standard
 * output and the diagnostics on standard error (master-run.c).  Returns the
 * exit status: 0 written; 1 refused, or a record that is itself wrong
 * (master.record); 2 when herald could not read or write (master.io). */
int cli_master_run(const cli_common *common, const char *command, const char *path,
		   const char *key, int wait, cli_master_change change, void *ctx);
/* Writes data to path (atomically, through cli_atomic below, or to stdout
 * for "-"); 0, or -1 after reporting the error. */
int cli_write_output(const char *command, const char *path, const char *data,
		     size_t len);

/* A file written through a temporary file in the same directory and renamed
 * over `path` at the end (fsync'd, with the original's owner, group and
 * mode: hg_rewrite_attributes), so that a failure at any point leaves the
 * original as it was.  A symbolic link is written through: the file it
 * leads to is replaced (hg_rewrite_target).  The writer streams: nothing
 * is held in memory.  SIGINT, SIGTERM or SIGHUP while it is open removes
 * the temporary file before ending the process. */
typedef struct cli_atomic {
	char *path;		/* as given, for messages */
	char *target;		/* the file replaced: path, links followed
				   (cli_atomic_open_at: its name in dirfd) */
	char *tmp;		/* the temporary file (its name in dirfd) */
	int dirfd;		/* cli_atomic_open_at's directory, or -1 */
	FILE *fp;
	struct cli_atomic *next;	/* the open ones (output.c) */
} cli_atomic;

/* 0, or -1 with errno set. */
int cli_atomic_open(cli_atomic *a, const char *path);
/* The same for the file `name` in the directory open at dirfd (which a
 * takes, and closes), as `path` in messages: the temporary file is made
 * and renamed over `name` in that directory, by its descriptor, so that
 * no link swapped into the path can divert the write (a link at `name`
 * itself is replaced, not followed). */
int cli_atomic_open_at(cli_atomic *a, int dirfd, const char *name, const char *path);
/* Renames the temporary file over the path: 0, or -1 with errno set (the
 * temporary file removed, the original untouched). */
int cli_atomic_commit(cli_atomic *a);
/* Removes the temporary file; the original stays as it was. */
void cli_atomic_abort(cli_atomic *a);

/* ------------------------------------------------------------------------
 * Inputs (inputs.c).
 * ------------------------------------------------------------------------ */
/* The FILE... operands expanded: "-" is standard input, a directory stands
 * for every *.hgn file under it (recursively, hidden entries skipped, in
 * byte order of their paths; regular files only, no symbolic link
 * followed).  A named operand is taken whatever it is, as cat would. */
typedef struct cli_walked {
	long root;		/* the directory operand it was found under
				   (an index in root_fds), or -1: an operand */
	size_t rel;		/* where in its path the name relative to that
				   directory begins */
} cli_walked;

typedef struct cli_inputs {
	char **paths;		/* as diagnostics name them */
	cli_walked *walked;	/* one for each path */
	size_t n, cap;
	int *root_fds;		/* the directory operands, open */
	size_t nroots;
} cli_inputs;

/* Expands the operands into `in`; a missing or unreadable operand is an
 * hgn.io-error diagnostic in d.  Returns the number of such problems. */
size_t cli_inputs_expand(cli_inputs *in, char **operands, int n, hg_diags *d);
void cli_inputs_free(cli_inputs *in);
/* For input i found by walking a directory operand: the directory that
 * holds it, opened from the operand down following no link (a new
 * descriptor), and *name its last component.  -1 with errno set when a
 * directory on the way is no longer one (ENOTDIR or ELOOP: it became a
 * link or something else); -1 with
 * errno 0 for an input named as an operand. */
int cli_input_dir_open(const cli_inputs *in, size_t i, const char **name);
/* Opens input i (not "-") for reading: an operand as named; a file found
 * in a directory from that directory's descriptor down, one component at a
 * time with O_NOFOLLOW, and only if it is still a regular file (a link or
 * FIFO swapped in since the walk is refused, never followed or read).
 * Each call gives a descriptor with its own offset, or -1 with an
 * hgn.io-error diagnostic in d. */
int cli_input_open(const cli_inputs *in, size_t i, hg_diags *d);

typedef enum cli_informat {
	CLI_IN_HGN,
	CLI_IN_JSON,
	CLI_IN_JSONL,
	CLI_IN_YAML
} cli_informat;

/* The format a path's extension implies: .json, .jsonl, .yaml and .yml; anything
 * else (and "-") is HGN. */
cli_informat cli_informat_of(const char *path);
/* "hgn", "json", "jsonl" or "yaml" to a format; -1 for anything else. */
int cli_informat_parse(const char *word);

/* The format of `path`: `from` (--from) when it is one (>= 0), else by the
 * extension. */
cli_informat cli_informat_pick(int from, const char *path);
/* --from=FORMAT's argument into *from: 0, or -1 after a usage error
 * (options.c). */
int cli_from_option(const cli_spec *spec, const char *arg, int *from);

/* One file's games, whatever its format, read game by game in memory that
 * does not grow with the file (HGN, JSON and YAML alike). */
typedef struct cli_source {
	const char *path;
	cli_informat format;
	hg_parser *parser;		/* HGN */
	hg_json_reader *json;		/* JSON */
	hg_yaml_reader *yaml;		/* YAML */
	FILE *fp;			/* the file JSON or YAML is read from (NULL:
					   standard input) */
	FILE *copy;			/* keep_copy: the input, from its start */
} cli_source;

/* Opens input i of `in` (cli_input_open).  keep_copy (HGN): src->copy reads the same bytes again from
 * the start, standard input included (through a temporary copy), for
 * comparing with the canonical form; the caller may take it (setting it
 * NULL) and close it.  Returns 0, or -1 on an I/O error (diagnosed in d).
 * A JSON or YAML document that does not load yields its diagnostics. */
int cli_source_open(cli_source *src, const cli_inputs *in, size_t i, cli_informat format,
		    int keep_copy, hg_diags *d);
/* As hg_parser_next: 1 and the next game in *g (the caller frees it),
 * 0 at the end, -1 on an I/O error (diagnosed). */
int cli_source_next(cli_source *src, hg_game_record **g, hg_diags *d);
void cli_source_close(cli_source *src);

/* The commands that show one file's games (next, replay): checks that the
 * operands name exactly one FILE, then calls show() on each of its games,
 * writing what show() put in `out` (the buffer ctx writes to) to standard
 * output and the game's diagnostics to standard error after it.  show() returns CLI_SHOW_BAD for
 * a game that is malformed or illegal, or'ed with CLI_SHOW_IO when it could
 * not write its output.  Returns the exit status: usage (2) for a bad
 * operand, an unreadable input or a write error, 1 when a game was bad, 0. */
enum { CLI_SHOW_BAD = 1, CLI_SHOW_IO = 2 };
typedef int (*cli_show_game)(void *ctx, const char *path, size_t index,
			     const hg_game_record *g, hg_diags *d);
int cli_show_games(const cli_spec *spec, const cli_common *common, int argc, char **argv,
		   int first, int from, cli_show_game show, void *ctx, hg_buf *out);

/* ------------------------------------------------------------------------
 * Reports of checked games (report.c), shared by `check` and by `report`,
 * which merges the JSON Lines of many `check` runs.
 * ------------------------------------------------------------------------ */
typedef enum cli_game_status { CLI_LEGAL, CLI_ILLEGAL, CLI_UNVERIFIED } cli_game_status;

/* The formats, in the order of --format's words (text first: the default). */
enum { CLI_REPORT_TEXT, CLI_REPORT_JSON, CLI_REPORT_JSONL, CLI_REPORT_JUNIT, CLI_REPORT_SARIF,
       CLI_REPORT_CSV };
extern const char *const cli_report_formats[];

/* How a game ended, for the results table (game-facts.c). */
typedef enum cli_ended {
	CLI_ENDED_UNKNOWN,		/* not replayed, and the record does not say */
	CLI_ENDED_RULES,		/* over by its rules */
	CLI_ENDED_RESIGNATION,
	CLI_ENDED_AGREEMENT,
	CLI_ENDED_FORFEIT,
	CLI_ENDED_ADJUDICATION,
	CLI_ENDED_UNFINISHED		/* not over, and no other ending declared */
} cli_ended;

/* What a results table says of a game besides its verdict: Event, Round,
 * the players in seat order (a name, a seat, or both may be unknown:
 * NULL), the result the replay gives (NULL when the main line was not
 * replayed to its end) and how the game ended. */
typedef struct cli_game_facts {
	char *event, *round;
	char **names, **seats;
	size_t nplayers;
	char *replayed;
	cli_ended ended;
} cli_game_facts;

/* Collecting a game's facts: cli_facts_begin takes what the record says
 * and readies `hooks` for hg_check_game, which then takes the seats and
 * the replayed result at the main line's end; cli_facts_end completes
 * them (legal: the main line was replayed to its end).  A game not
 * replayed needs only cli_facts_begin. */
typedef struct cli_facts_probe {
	hg_replay_hooks hooks;
	cli_game_facts *facts;
	const hg_game_record *rec;
	const hg_node *last;
	int reached;
} cli_facts_probe;
void cli_facts_begin(cli_facts_probe *p, cli_game_facts *f, const hg_game_record *rec);
void cli_facts_end(cli_facts_probe *p, hg_session *session, int legal);
void cli_facts_free(cli_game_facts *f);
/* "rules", "resignation", ... ; NULL for CLI_ENDED_UNKNOWN. */
const char *cli_ended_word(cli_ended e);
cli_ended cli_ended_parse(const char *word);
/* The players as "Ana (P1); Ben (P2)": a name, with its seat when the two
 * differ; a seat alone when no name is known. */
void cli_facts_players(const cli_game_facts *f, hg_buf *out);
/* [{"seat": ..., "name": ...}, ...] */
json_t *cli_facts_players_json(const cli_game_facts *f);
/* Back from a game object of the JSON formats (fields absent in an older
 * report are taken as unknown): 0, or -1 when a field has the wrong type. */
int cli_facts_from_json(cli_game_facts *f, json_t *game);

/* What one game came to. */
typedef struct cli_game_result {
	const char *file;
	size_t index;			/* the game's number in its file, from 1 */
	unsigned line;			/* where it starts */
	const char *game_tag, *result_tag;	/* NULL when missing */
	cli_game_status status;
	int syntax_ok;			/* 0: not replayed because of a syntax error */
	size_t actions;			/* actions replayed, every line */
	const hg_diags *diags;
	const cli_game_facts *facts;	/* NULL: none known */
} cli_game_result;

typedef struct cli_summary {
	size_t files, games, counts[3], actions;
	size_t io_errors;		/* inputs that could not be read */
	size_t stray_errors;		/* inputs with malformed text outside any game */
	double seconds;
} cli_summary;

typedef struct cli_report cli_report;

const char *cli_status_name(cli_game_status s);
/* "legal", "illegal" or "unverified" to a status; -1 for anything else. */
int cli_status_parse(const char *word);
/* The results table (results-table.c): its header and one game's row, as
 * text (tab-separated) or CSV (RFC 4180). */
void cli_results_header(hg_buf *b, int csv);
/* One CSV field (RFC 4180; a field a spreadsheet would run as a formula is
 * written after a single quote); nothing for NULL. */
void cli_csv_field(hg_buf *b, const char *s);
void cli_results_row(hg_buf *b, const cli_game_result *g, int csv);
/* Standings across many games (standings.c, herald-report(1), STANDINGS):
 * games are added as they come; the tables are ranked and written at the
 * end, in text, csv or json (jsonl: the same document on one line). */
typedef struct cli_standings cli_standings;
cli_standings *cli_standings_new(void);
/* 0; -1 when the game's result cannot be read as a result of its players
 * (the game is then not counted). */
int cli_standings_add(cli_standings *s, const cli_game_result *g);
void cli_standings_write(cli_standings *s, int format, hg_buf *out);
void cli_standings_free(cli_standings *s);
/* The JSON objects of the json and jsonl formats (herald-check.schema.json). */
json_t *cli_game_json(const cli_game_result *g, int errors_only);
json_t *cli_summary_json(const cli_summary *s);
/* The manual page that explains a diagnostic code, as "herald-notation(5)"
 * (rule-page.c). */
const char *cli_rule_page(const char *code);

/* A report in one of the formats, written to out as it goes.  errors_only
 * (-q) leaves out warnings, unverified diagnostics and the text summary. */
cli_report *cli_report_new(int format, FILE *out, int errors_only, int colour_out,
			   int colour_err);
/* --results: the text format becomes the results table, one line per
 * game (csv always is that table). */
void cli_report_results(cli_report *r);
void cli_report_game(cli_report *r, const cli_game_result *g);
/* Diagnostics that belong to no game: malformed text outside any game, or
 * (io) an input that could not be read, which also goes to standard error. */
void cli_report_loose(cli_report *r, const char *file, const hg_diags *d, int io);
/* The counts so far. */
const cli_summary *cli_report_summary(const cli_report *r);
/* Writes the summary and whatever closes the format; 0, or -1 when a write
 * failed. */
int cli_report_finish(cli_report *r, size_t files, double seconds);
void cli_report_free(cli_report *r);

/* ------------------------------------------------------------------------
 * The progress bar (progress.c): on standard error, only when it is a
 * terminal, for runs over many games or large files.
 * ------------------------------------------------------------------------ */
typedef struct cli_progress cli_progress;

/* total_bytes 0: unknown (standard input).  Returns NULL when no bar is to
 * be shown (not a terminal, TERM=dumb, or disabled). */
cli_progress *cli_progress_new(int enabled, unsigned long long total_bytes, size_t files);
/* Redraws at most a few times a second. */
void cli_progress_update(cli_progress *p, size_t games, unsigned long long bytes);
/* Erases the bar (before other output reaches the terminal). */
void cli_progress_clear(cli_progress *p);
/* Erases the bar for good and frees it. */
void cli_progress_free(cli_progress *p);

/* The wall-clock seconds since `since` (CLOCK_MONOTONIC). */
double cli_elapsed(const struct timespec *since);

#endif

/* herald.c - main: the table of subcommands and the dispatch to them,
 * `herald help`, `herald --help` and `herald --version`. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
} command;

static int help_main(int argc, char **argv);

/* Every subcommand, in the order `herald help` lists them. */
static const command commands[] = {
	{ "check", cli_check_main, N_("check records: syntax, every action against the rules, the result") },
	{ "fmt", cli_fmt_main, N_("write records in canonical form (or rewrite them in place)") },
	{ "convert", cli_convert_main, N_("convert records between HGN, JSON and YAML") },
	{ "replay", cli_replay_main, N_("show each action of a record and the position after it") },
	{ "next", cli_next_main, N_("show the position at the end of a record, who is to move, what is legal") },
	{ "view", cli_view_main, N_("write a record as one seat may see it (other seats' hidden cards as '?')") },
	{ "gen", cli_gen_main, N_("generate random legal games") },
	{ "games", cli_games_main, N_("list the games herald referees and the data files they use") },
	{ "deck", cli_deck_main, N_("check deck files against their game's construction rules") },
	{ "select", cli_select_main, N_("write the games of an archive that meet criteria (tags, verdicts, actions; --unique)") },
	{ "split", cli_split_main, N_("cut an archive into shards of whole games (for checking on many machines)") },
	{ "report", cli_report_main, N_("merge the JSON Lines of many checks into one report") },
	{ "new", cli_new_main, N_("start a correspondence game refereed by herald (secret seed, opening deal)") },
	{ "entropy", cli_entropy_main, N_("give a seat's word for a refereed game's seed, before its first deal") },
	{ "move", cli_move_main, N_("play a seat's action in a game herald referees, with the chance after it") },
	{ "reveal", cli_reveal_main, N_("publish a refereed game's secret seed, so that anyone can verify it") },
	{ "end", cli_end_main, N_("end a refereed game by agreement, forfeit or adjudication") },
#ifdef HAVE_GMIME
	{ "judge", cli_judge_main, N_("the e-mail judge: answer players' e-mails and run their games") },
#endif
	{ "help", help_main, N_("show the help of herald or of a command") },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void print_overview(FILE *fp)
{
	fputs(_("Usage: herald COMMAND [OPTION]... [FILE]...\n"
	      "  or:  herald --help | --version\n"
	      "Referee and record keeper for crusade-era tabletop games: checks game records\n"
	      "written in HGN action by action against each game's rules.\n"
	      "\nCommands:\n"), fp);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(fp, "  %-9s %s\n", commands[i].name, _(commands[i].summary));
	fputs(_("\nRun 'herald COMMAND --help' for a command's options.\n"
	      "Exit status: 0 all games legal, 1 an illegal or malformed game,\n"
	      "2 a usage or input/output error.\n"
	      "\nFull documentation: man herald\n"), fp);
}

static const command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

/* "herald: 'chek' is not a herald command" and the closest names. */
static int unknown_command(const char *name)
{
	fprintf(stderr, _("herald: '%s' is not a herald command. See 'herald --help'.\n"), name);
	hg_names *names = hg_names_new();
	for (size_t i = 0; i < NCOMMANDS; i++)
		hg_names_add(names, commands[i].name, (int)i, NULL);
	int near[3];
	size_t n = hg_names_suggest(names, name, near, 3);
	hg_names_free(names);
	const char *words[3];
	for (size_t i = 0; i < n; i++)
		words[i] = commands[near[i]].name;
	cli_print_suggestions(stderr, words, n);
	return CLI_EXIT_USAGE;
}

/* `herald help [COMMAND]`: the overview, or COMMAND's own --help. */
static int help_main(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_overview(stdout);
		return CLI_EXIT_OK;
	}
	if (argc > 2) {
		fputs(_("herald help: too many operands\n"
			"Usage: herald help [COMMAND]\n"), stderr);
		return CLI_EXIT_USAGE;
	}
	const command *c = find_command(argv[1]);
	if (!c)
		return unknown_command(argv[1]);
	if (c->run == help_main) {
		print_overview(stdout);
		return CLI_EXIT_OK;
	}
	char *args[] = { (char *)c->name, (char *)"--help", NULL };
	return c->run(2, args);
}

/* A failed write to stdout (a full disk, a closed pipe) must not pass for
 * success. */
static int close_stdout(int status)
{
	if (cli_out_of_memory_noted()) {
		fflush(stdout);
		fputs(_("herald: out of memory\n"), stderr);
		return CLI_EXIT_USAGE;
	}
	if (cli_stdout_failed())
		return CLI_EXIT_USAGE;	/* reported when it failed */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, _("herald: write error: %s\n"), strerror(errno));
		return CLI_EXIT_USAGE;
	}
	return status;
}

/* jansson's allocations: a JSON value it cannot make is dropped without a
 * word (json_object_set_new of NULL), so herald ends there, as it does
 * when the library reports allocation failure, rather than print a
 * document with holes. */
static void *json_alloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		cli_out_of_memory();
	return p;
}

int main(int argc, char **argv)
{
	/* Messages in the user's language; numbers keep the C locale's
	 * decimal point, which the reports and CSV are read with. */
	setlocale(LC_ALL, "");
	setlocale(LC_NUMERIC, "C");
	json_set_alloc_funcs(json_alloc, free);
	if (argc < 2) {
		print_overview(stderr);
		return CLI_EXIT_USAGE;
	}
	const char *first = argv[1];
	if (strcmp(first, "--help") == 0 || strcmp(first, "-h") == 0) {
		print_overview(stdout);
		return close_stdout(CLI_EXIT_OK);
	}
	if (strcmp(first, "--version") == 0 || strcmp(first, "-V") == 0) {
		cli_print_version(stdout);
		return close_stdout(CLI_EXIT_OK);
	}
	if (first[0] == '-') {
		fprintf(stderr, _("herald: unrecognized option '%s'\n"
				  "Options go after the command: herald COMMAND [OPTION]...\n"
				  "Try 'herald --help' for more information.\n"), first);
		return CLI_EXIT_USAGE;
	}
	const command *c = find_command(first);
	if (!c)
		return unknown_command(first);
#if defined(HAVE_MALLOPT) && defined(HAVE_MALLOC_H) && defined(M_TRIM_THRESHOLD)
	/* The commands read records one game at a time, each game's record
	 * and state freed before the next is made.  glibc hands the free top
	 * of a heap back to the system once it passes the trim threshold
	 * (128 KiB), and the next game then faults it in again: 23,000 page
	 * faults in 100,000 Crusader Kingdoms games on one thread, 69,000 on
	 * -j 2's further threads, each heap its own.  What is freed is kept
	 * for reuse instead, up to 16 MiB; memory in use is unchanged. */
	mallopt(M_TRIM_THRESHOLD, 16 * 1024 * 1024);
#endif
	return close_stdout(c->run(argc - 1, argv + 1));
}

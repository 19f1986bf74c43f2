/* rule-page.c - the manual page that explains a diagnostic code, by the
 * code's prefix: a game's codes in its game page, the notation's in
 * herald-notation(5), a command's in that command's page.  SARIF's rule
 * help points there. */
#include "config.h"

#include <string.h>

#include "cli.h"

static const struct {
	const char *prefix;	/* with its '.' */
	const char *page;
} pages[] = {
	{ "hgn.", "herald-notation(5)" },
	{ "koc.", "herald-kingdoms-of-crusaders(7)" },
	{ "ck.", "herald-crusader-kingdoms(7)" },
	{ "enc.", "herald-encrucijada(7)" },
	{ "master.", "herald-move(1)" },
	{ "view.", "herald-view(1)" },
	{ "deck.", "herald-deck(1)" },
	{ "check.", "herald-check(1)" },
};

const char *cli_rule_page(const char *code)
{
	for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
		if (strncmp(code, pages[i].prefix, strlen(pages[i].prefix)) == 0)
			return pages[i].page;
	/* data.* and the rest: herald(1), DIAGNOSTICS */
	return "herald(1)";
}

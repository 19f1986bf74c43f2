/* unit.h - the shared main of the Check unit-test programs.
 * Each test program defines `Suite *unit_suite(void)` and includes this
 * header once, after that definition. */
#ifndef HERALD_UNIT_H
#define HERALD_UNIT_H

#include "config.h"

#include <check.h>
#include <stdlib.h>

Suite *unit_suite(void);

int main(void)
{
	SRunner *sr = srunner_create(unit_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif

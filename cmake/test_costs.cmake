# Included by ctest after gtest_discover_tests has defined the unit tests
# (CMakeLists.txt, TEST_INCLUDE_FILES): the longest of them start first in a
# parallel run, next to the long CLI tests, instead of last. Minutes on two
# cores, each setting up a 2 KiB PoRep circuit (2.7 M constraints).
set_tests_properties(
  CurioPorep.CurioRequestProvesAndBadInputIsRefusedNamingTheJsonPath
  PorepProve.TwoKiBSectorProvesAndVerifies
  EnginePorep.TwoKiBSectorProvesEndToEndAndBadVanillaIsRefused
  PROPERTIES COST 800)
# A 2 KiB SnapDeals setup (1.7 M rows) and three proofs.
set_tests_properties(
  CurioSnap.UpdatesProveAsCurioAsksAndBadRequestsAreRefusedNamingPartitionAndField
  PROPERTIES COST 700)

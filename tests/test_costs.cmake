# Read by ctest after the discovered tests (tests/CMakeLists.txt): the COST of the longest, in
# seconds on a 2-core AMD Zen 3, so that a build tree that has not run them yet (a fresh clone,
# CI) starts them first. ctest otherwise starts tests it has not timed in the order they are
# listed, and these, listed late, left one core idle behind them for minutes (1009 s for the
# suite against 837 s once ctest had timed them). ctest's own timings take over after a run.
set(seiche_long_tests
    "PbfWcsph/FloatingBox3D.DraftIsTheDensityRatioTimesTheHeight/wcsph=175"
    "All/FloatingBox.DraftIsTheDensityRatioTimesTheHeight/dfsph=143"
    "All/FloatingBox.DraftIsTheDensityRatioTimesTheHeight/ddr=108"
    "All/FloatingBox.DraftIsTheDensityRatioTimesTheHeight/wcsph=96"
    "SurfaceTension.CalibrationDropRingsInProportionToGamma=92"
    "PbfWcsph/FloatingBox3D.DraftIsTheDensityRatioTimesTheHeight/pbf=66"
    "PbfWcsph/SubmergedBody.FeelsItsDisplacedWeight/wcsph=46"
    "All/FloatingBox.DraftIsTheDensityRatioTimesTheHeight/pbf=43"
    "MeshBodies.DynamicMeshFloatsAsTheBoxDoes=25")
foreach(test IN LISTS seiche_tests_TESTS)
  foreach(entry IN LISTS seiche_long_tests)
    string(REPLACE "=" ";" name_cost "${entry}")
    list(GET name_cost 0 name)
    list(GET name_cost 1 cost)
    # A parameterised test's name goes on with "  # GetParam() = ...".
    string(FIND "${test}" "${name}" at)
    string(LENGTH "${name}" length)
    string(SUBSTRING "${test}${name}" ${length} 1 next)
    if(at EQUAL 0 AND (test STREQUAL name OR next STREQUAL " "))
      set_tests_properties("${test}" PROPERTIES COST ${cost})
    endif()
  endforeach()
endforeach()

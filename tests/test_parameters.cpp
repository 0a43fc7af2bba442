// The parameter table: one declaration drives the loader, validation in the core, the resolved
// scene, the JSON Schema and the docs; a hand-built definition is held to the same rules as a file.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "seiche/io/scene_loader.hpp"
#include "seiche/io/scene_schema.hpp"
#include "seiche/scene.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

WorldDef small_tank() {
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.01;
    def.container_max = {0.5, 0.5, 0};
    def.fluid.push_back({{0, 0, 0}, {0.2, 0.2, 0}, {0, 0, 0}});
    return def;
}

std::set<std::string> paths(const std::vector<Problem>& problems) {
    std::set<std::string> out;
    for (const auto& p : problems) out.insert(p.path);
    return out;
}

TEST(Parameters, HandBuiltDefinitionIsValidatedInTheCore) {
    EXPECT_TRUE(validate(small_tank()).empty());
    EXPECT_NO_THROW(World<2>{small_tank()});

    // The three values of the issue report, which used to reach step 0 as "position is not finite".
    WorldDef bad = small_tank();
    bad.support_factor = 1.5;
    bad.solver.pbf.min_iterations = 5000;
    bad.time.cfl = 7;
    const std::vector<Problem> problems = validate(bad);
    EXPECT_EQ(paths(problems), (std::set<std::string>{"support_factor", "solver.pbf.min_iterations",
                                                      "time.cfl"}));
    try {
        World<2> w(bad);
        FAIL() << "an invalid definition built a world";
    } catch (const DefinitionError& e) {
        EXPECT_EQ(e.problems().size(), 3u);
        const std::string what = e.what();
        EXPECT_NE(what.find("support_factor: expected a number in [3, 5], got 1.5"),
                  std::string::npos)
            << what;
        EXPECT_NE(what.find("time.cfl: expected a number in (0, 1], got 7"), std::string::npos)
            << what;
    }

    // Checks between keys, also in the core.
    WorldDef between = small_tank();
    between.solver.pbf.min_iterations = 50;  // in range, but above max_iterations (20)
    between.fluid[0].max = {0.7, 0.2, 0};    // outside the container
    EXPECT_EQ(paths(validate(between)),
              (std::set<std::string>{"solver.pbf.min_iterations", "fluid[0]"}));
    // Beyond 4.5 r only the Wendland kernel: the others' walls over-count a wall's density.
    WorldDef wide = small_tank();
    wide.support_factor = 5;
    const auto too_wide = validate(wide);
    EXPECT_EQ(paths(too_wide), std::set<std::string>{"support_factor"});
    ASSERT_FALSE(too_wide.empty());
    EXPECT_NE(too_wide.front().message.find("at most 4.5 with the cubic_spline kernel"),
              std::string::npos)
        << too_wide.front().message;
    wide.kernel = KernelType::wendland_c2;
    EXPECT_TRUE(validate(wide).empty());
    WorldDef none = small_tank();
    none.fluid.clear();
    EXPECT_EQ(paths(validate(none)), std::set<std::string>{"fluid"});
    WorldDef nan = small_tank();
    nan.gravity[1] = std::nan("");
    EXPECT_EQ(paths(validate(nan)), std::set<std::string>{"gravity"});
    WorldDef wrong_d = small_tank();
    EXPECT_THROW(World<3>{wrong_d}, DefinitionError);
    // Sizes that cannot fit are refused with the figure before anything is allocated.
    WorldDef huge = small_tank();
    huge.dimension = 3;
    huge.particle_radius = 0.0005;
    huge.container_max = {2, 2, 2};
    huge.fluid[0].max = {2, 2, 2};
    const auto big = validate(huge);
    ASSERT_FALSE(big.empty());
    EXPECT_NE(big.front().message.find("more than this build supports"), std::string::npos);
}

TEST(Parameters, EveryKeyRoundTripsThroughTheResolvedScene) {
    // Every declared key is written by scene_to_json and read back to the same value.
    Scene s = io::parse_scene(nlohmann::json::parse(R"({
        "dimension": 3, "particle_radius": 0.02,
        "container": {"min": [0, 0, 0], "max": [1, 1, 1]},
        "fluid": [{"min": [0, 0, 0], "max": [0.3, 0.5, 0.3], "velocity": [0.5, 0, 0]}],
        "obstacles": [{"min": [0.6, 0, 0.6], "max": [0.8, 0.2, 0.8]}],
        "render": {"range": [0, 2], "camera": {"position": [2, 1, 2], "target": [0.5, 0.3, 0.5]}}
    })"),
                                "rt");
    const nlohmann::json j = io::scene_to_json(s);
    for (const auto& p : world_params()) {
        const nlohmann::json* node = &j;
        for (const std::string& part : key_parts(p.key)) {
            ASSERT_TRUE(node->contains(part)) << p.key << " is not in the resolved scene";
            node = &(*node)[part];
        }
    }
    const Scene back = io::parse_scene(j, "rt");
    EXPECT_EQ(io::scene_to_json(back), j);
    EXPECT_FALSE(back.render.camera_auto);
    EXPECT_DOUBLE_EQ(back.render.range_max, 2.0);
    ASSERT_EQ(back.obstacles.size(), 1u);
    EXPECT_DOUBLE_EQ(back.fluid[0].velocity[0], 0.5);
}

TEST(Parameters, DocsTablesAreTheGeneratedOnes) {
    const std::string doc = slurp(fs::path(SEICHE_SOURCE_DIR) / "docs/scene-format.md");
    const std::string begin = "<!-- BEGIN GENERATED: seiche schema --markdown -->\n";
    const std::size_t i = doc.find(begin), j = doc.find("<!-- END GENERATED -->");
    ASSERT_NE(i, std::string::npos);
    ASSERT_NE(j, std::string::npos);
    EXPECT_EQ(doc.substr(i + begin.size(), j - i - begin.size()), io::parameter_tables_markdown())
        << "docs/scene-format.md differs from the parameter table: run tools/update_docs.sh";
    // Every key of the table has its row.
    for (const auto& p : world_params()) {
        const std::string key(p.key);
        const std::string leaf = key.substr(key.rfind('.') + 1);
        EXPECT_NE(doc.find("| `" + leaf + "` |"), std::string::npos) << key;
    }
}

TEST(Parameters, CommittedSchemaIsTheGeneratedOne) {
    const auto committed =
        nlohmann::json::parse(slurp(fs::path(SEICHE_SOURCE_DIR) / "docs/scene.schema.json"));
    EXPECT_EQ(committed, io::scene_schema())
        << "docs/scene.schema.json differs from the parameter table: run tools/update_docs.sh";
    // The schema knows every key, with its range.
    const auto& pbf = committed["properties"]["solver"]["properties"]["pbf"]["properties"];
    EXPECT_EQ(pbf["max_iterations"]["minimum"], 1);
    EXPECT_EQ(pbf["max_iterations"]["maximum"], 1000);
    EXPECT_EQ(committed["properties"]["container"]["required"],
              nlohmann::json::array({"min", "max"}));
}

TEST(Parameters, EveryShippedSceneLoads) {
    int n = 0;
    for (const auto& e : fs::recursive_directory_iterator(fs::path(SEICHE_SOURCE_DIR) / "scenes")) {
        if (e.path().extension() != ".json") continue;
        EXPECT_NO_THROW(io::load_scene(e.path())) << e.path();
        ++n;
    }
    EXPECT_GE(n, 10);
}

}  // namespace
}  // namespace seiche

// The one list of solvers (seiche/solver_list.hpp): everything that enumerates solvers derives
// from it, every listed solver works through the shared machinery, and no code outside the list
// and the solvers' own files names a solver. The list of forces (seiche/force_list.hpp): each
// declares its keys once, and the keys' declarations say what a running world may change.
#include <gtest/gtest.h>

#include <filesystem>
#include <algorithm>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "seiche/force_list.hpp"
#include "seiche/parameters.hpp"
#include "seiche/world.hpp"

namespace seiche {
namespace {

namespace fs = std::filesystem;

TEST(SolverList, TypeChoicesAndKeyBlocksComeFromTheList) {
    const Param<WorldDef>* type = nullptr;
    std::set<std::string> blocks;
    for (const auto& p : world_params()) {
        if (p.key == "solver.type") type = &p;
        const std::vector<std::string> parts = key_parts(p.key);
        if (parts.size() == 3 && parts[0] == "solver") blocks.insert(parts[1]);
    }
    ASSERT_NE(type, nullptr);
    std::vector<std::string> choices(type->choices.begin(), type->choices.end());
    EXPECT_EQ(choices, solver_names());
    // Every solver.<block>.<key> belongs to a listed solver.
    for (const std::string& b : blocks) EXPECT_TRUE(find_solver(b)) << "solver." << b << ".*";
    for (SolverType t : solver_types) {
        EXPECT_EQ(find_solver(solver_name(t)), t);
        EXPECT_FALSE(solver_traits(t).title.empty());
        EXPECT_FALSE(solver_traits(t).paper.empty());
        const std::string_view it = solver_traits(t).iterations_key;
        if (!it.empty()) {
            bool declared = false;
            for (const auto& p : world_params()) declared = declared || p.key == it;
            EXPECT_TRUE(declared) << it;
        }
        // A solver that iterates down to a tolerance says what to change when it stops short.
        if (!solver_traits(t).tolerance_key.empty())
            EXPECT_NE(solver_traits(t).capped_remedy.find(it), std::string_view::npos)
                << solver_name(t);
    }
    EXPECT_FALSE(find_solver("sph"));
}

// Each force of the list declares its keys once, as live keys, next to its code; no key of the
// world's table is declared twice; what a running world accepts follows the declarations.
TEST(ForceList, KeysAreDeclaredOnceAndLiveAsDeclared) {
    std::set<std::string_view> keys;
    for (const auto& p : world_params()) EXPECT_TRUE(keys.insert(p.key).second) << p.key;
    std::size_t forces = 0;
#define SEICHE_FORCE_CHECK(id, Class)                                              \
    ++forces;                                                                      \
    EXPECT_FALSE(Class<2>::traits.name.empty());                                   \
    EXPECT_FALSE(Class<2>::keys().empty()) << Class<2>::traits.name;               \
    for (const auto& p : Class<2>::keys()) {                                       \
        EXPECT_TRUE(keys.count(p.key)) << p.key;                                   \
        EXPECT_TRUE(is_live_key(p.key)) << p.key;                                  \
    }
    SEICHE_FORCES(SEICHE_FORCE_CHECK)
#undef SEICHE_FORCE_CHECK
    EXPECT_EQ(forces, 4u);

    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.02;
    def.container_max = {0.4, 0.4, 0};
    def.fluid = {{{0, 0, 0}, {0.2, 0.2, 0}, {}}};
    World<2> w(def);
    for (const auto& p : world_params()) {
        if (p.live != Live::no) {
            // The running value given back is accepted (choices travel by name or index).
            EXPECT_NO_THROW(w.set(p.key, p.get(w.definition()))) << p.key;
        } else if (p.kind == ParamKind::number || p.kind == ParamKind::integer) {
            EXPECT_THROW(w.set(p.key, p.get(w.definition())), DefinitionError) << p.key;
        }
    }
}

class ListedSolver : public ::testing::TestWithParam<SolverType> {};

// A small tank at rest: each listed solver is built from the definition, switched to live, and
// its traits hold: a pressure field when it says so, the sound speed in its CFL step when it
// resolves sound.
TEST_P(ListedSolver, RunsAndKeepsItsTraits) {
    const SolverType type = GetParam();
    const SolverTraits& traits = solver_traits(type);
    WorldDef def;
    def.dimension = 2;
    def.particle_radius = 0.01;
    def.container_max = {0.4, 0.4, 0};
    def.fluid = {{{0, 0, 0}, {0.4, 0.2, 0}, {}}};
    def.solver.type = type;
    World<2> w(def);
    EXPECT_EQ(w.solver().index(), std::size_t(type));
    for (int k = 0; k < 20; ++k) ASSERT_FALSE(w.step(w.suggested_dt()).instability);
    EXPECT_EQ(w.pressure().size(), traits.has_pressure ? w.particles().size() : 0u);
    // At rest, the CFL bound is max_dt unless the sound speed is in it.
    const double sound_dt = def.time.cfl * 2 * def.particle_radius / w.speed_of_sound();
    if (traits.resolves_sound)
        EXPECT_LE(w.suggested_dt(), sound_dt * 1.0001);
    else
        EXPECT_GT(w.suggested_dt(), 2 * sound_dt);

    // Switched to from every other solver on the same particles.
    for (SolverType from : solver_types) {
        WorldDef other = def;
        other.solver.type = from;
        World<2> v(other);
        v.step(v.suggested_dt());
        v.set("solver.type", std::string(solver_name(type)));
        EXPECT_EQ(v.definition().solver.type, type);
        EXPECT_EQ(v.solver().index(), std::size_t(type));
        ASSERT_FALSE(v.step(v.suggested_dt()).instability) << solver_name(from);
    }
}

INSTANTIATE_TEST_SUITE_P(EverySolver, ListedSolver, ::testing::ValuesIn(solver_types),
                         [](const auto& info) { return std::string(solver_name(info.param)); });

std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// The headers the list and the variant include: the solvers' own headers.
std::set<fs::path> solver_headers(const fs::path& root) {
    std::set<fs::path> own;
    const std::regex include(R"re(#include "(seiche/[a-z_]+\.hpp)")re");
    for (const char* list : {"include/seiche/solver_list.hpp", "include/seiche/solver.hpp"}) {
        own.insert(root / list);
        const std::string text = read(root / list);
        for (std::sregex_iterator m(text.begin(), text.end(), include), end; m != end; ++m)
            own.insert(root / "include" / (*m)[1].str());
    }
    return own;
}

// "Adding a solver is its own files plus one line": outside the list, its own headers and
// src/solvers/, no code names a solver — no "pbf" literal, no SolverType::pbf, no
// holds_alternative/get_if on one alternative of the variant.
TEST(SolverList, NoSolverIsNamedOutsideTheListAndItsOwnFiles) {
    const fs::path root = SEICHE_SOURCE_DIR;
    const std::set<fs::path> own = solver_headers(root);
    std::string names;
    for (const std::string& n : solver_names()) names += (names.empty() ? "" : "|") + n;
    const std::regex named("\"(" + names + ")\"|SolverType::(" + names +
                           ")\\b|(holds_alternative|get_if)<[A-Z][A-Za-z]*<D>>");
    std::vector<std::string> found;
    std::size_t files = 0;
    for (const char* dir : {"src", "include", "apps", "python"}) {
        for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
            const fs::path p = e.path();
            const std::string ext = p.extension().string();
            if (!e.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".py")) continue;
            if (own.count(p) || p.parent_path() == root / "src/solvers") continue;
            ++files;
            std::istringstream text(read(p));
            std::string line;
            for (int n = 1; std::getline(text, line); ++n) {
                // Comments may name what they explain; code may not.
                const std::string code = line.substr(0, std::min(line.find("//"), line.find("# ")));
                if (std::regex_search(code, named))
                    found.push_back(fs::relative(p, root).string() + ":" + std::to_string(n) +
                                    ": " + line);
            }
        }
    }
    EXPECT_GT(files, 50u);
    std::string all;
    for (const auto& f : found) all += "\n  " + f;
    EXPECT_TRUE(found.empty()) << "solvers named outside the list:" << all;
}

}  // namespace
}  // namespace seiche

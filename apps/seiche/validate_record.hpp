// What `seiche validate` keeps in its output directory while it runs, so that a validation cut
// short (Ctrl-C, a kill, a machine going down) continues with `--resume` instead of starting
// again: the options it was started with, each case and solver it finished (their CSV rows and
// verdicts), and the last checkpoint of the long case it was in.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace seiche::app {

// One verdict of a case: a quantity of one solver against its tolerance.
struct Check {
    std::string case_name, solver, quantity;
    double deviation, tolerance;
    std::string detail;
    // false: a property the model is known not to have, measured and shown with its figures but
    // not part of the verdict (the surface tension's independence of the resolution, whose issue
    // asks for the figures when it does not hold).
    bool required = true;
    bool pass() const;
};

// A record that cannot be used: damaged, or of another validation. The message names the file.
struct RecordError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The folder DIR/resume/: options.json, CASE.SOLVER.json for each case and solver finished,
// CASE.SOLVER.checkpoint for the one in progress (World::save with what the case measured so far).
class ValidateRecord {
  public:
    struct Options {
        std::vector<std::string> cases, solvers, overrides;
    };
    // What one case with one solver wrote: its rows of each of the case's CSVs (by the stream's
    // name) and its checks.
    struct Finished {
        std::map<std::string, std::string> rows;
        std::vector<Check> checks;
    };

    explicit ValidateRecord(const std::filesystem::path& output_dir);
    // A validation was cut short here (its options are on disk).
    bool exists() const;
    // "started ...: finished A with B, ...; in C with D (checkpoint at t = ... s)", for messages.
    std::string describe() const;
    // A fresh validation: the old record removed, the options written.
    void start(const Options& o);
    Options options() const;
    std::optional<Finished> finished(const std::string& case_name, const std::string& solver) const;
    void save_finished(const std::string& case_name, const std::string& solver, const Finished& f);
    // Where the case with the solver keeps its checkpoint (none there: it starts from t = 0).
    std::filesystem::path checkpoint(const std::string& case_name, const std::string& solver) const;
    // Everything done: the record goes.
    void clear();

  private:
    std::filesystem::path folder_;
};

// A validation stopped by Ctrl-C or SIGTERM after its checkpoint was written.
struct ValidateInterrupted : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace seiche::app

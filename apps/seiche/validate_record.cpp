// The record an interrupted `seiche validate` resumes from (validate_record.hpp).
#include "validate_record.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "seiche/io/input_file.hpp"
#include "seiche/io/writers.hpp"

namespace seiche::app {

namespace fs = std::filesystem;
using nlohmann::json;

bool Check::pass() const { return std::isfinite(deviation) && deviation <= tolerance; }

namespace {

constexpr const char* options_file = "options.json";

json read_json(const fs::path& file, const char* what) {
    std::ifstream in;
    try {
        in = io::open_input(file, what, 256 * io::MiB);
    } catch (const std::runtime_error& e) {
        throw RecordError(e.what());
    }
    if (!in) throw RecordError(file.string() + ": cannot be read");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return json::parse(text.str());
    } catch (const json::exception& e) {
        throw RecordError(fmt::format("{}: damaged, not JSON ({}); --overwrite starts the "
                                      "validation again",
                                      file.string(), e.what()));
    }
}

std::vector<std::string> strings(const json& j, const char* key, const fs::path& file) {
    if (!j.contains(key) || !j[key].is_array())
        throw RecordError(fmt::format("{}: no list \"{}\"", file.string(), key));
    std::vector<std::string> out;
    for (const auto& s : j[key]) {
        if (!s.is_string())
            throw RecordError(fmt::format("{}: \"{}\" holds a non-string", file.string(), key));
        out.push_back(s.get<std::string>());
    }
    return out;
}

// JSON has no NaN: a deviation that could not be measured (NaN) is written as null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

}  // namespace

ValidateRecord::ValidateRecord(const fs::path& output_dir) : folder_(output_dir / "resume") {}

bool ValidateRecord::exists() const { return fs::exists(folder_ / options_file); }

std::string ValidateRecord::describe() const {
    std::string done, current;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder_, ec)) {
        const std::string name = e.path().filename().string();
        const auto ext = e.path().extension().string();
        const std::string stem = e.path().stem().string();
        const auto dot = stem.find('.');
        if (dot == std::string::npos) continue;
        const std::string what = stem.substr(0, dot) + " with " + stem.substr(dot + 1);
        if (ext == ".json") done += (done.empty() ? "" : ", ") + what;
        if (ext == ".checkpoint") current = what;
    }
    std::string text = done.empty() ? "nothing finished yet" : "finished " + done;
    if (!current.empty()) text += "; " + current + " from its checkpoint";
    return text;
}

void ValidateRecord::start(const Options& o) {
    clear();
    fs::create_directories(folder_);
    const json j = {{"cases", o.cases}, {"solvers", o.solvers}, {"overrides", o.overrides}};
    io::write_file_atomic(folder_ / options_file,
                          [&](std::ostream& out) { out << j.dump(2) << "\n"; });
}

ValidateRecord::Options ValidateRecord::options() const {
    const fs::path file = folder_ / options_file;
    const json j = read_json(file, "the interrupted validation's options");
    if (!j.is_object()) throw RecordError(file.string() + ": not an object");
    return {strings(j, "cases", file), strings(j, "solvers", file), strings(j, "overrides", file)};
}

std::optional<ValidateRecord::Finished> ValidateRecord::finished(const std::string& case_name,
                                                                 const std::string& solver) const {
    const fs::path file = folder_ / (case_name + "." + solver + ".json");
    if (!fs::exists(file)) return std::nullopt;
    const json j = read_json(file, "a finished case's record");
    Finished f;
    try {
        for (const auto& [name, text] : j.at("rows").items()) f.rows[name] = text.get<std::string>();
        for (const auto& c : j.at("checks")) {
            const json& d = c.at("deviation");
            f.checks.push_back({c.at("case").get<std::string>(), c.at("solver").get<std::string>(),
                                c.at("quantity").get<std::string>(),
                                d.is_null() ? double(NAN) : d.get<double>(),
                                c.at("tolerance").get<double>(), c.at("detail").get<std::string>(),
                                c.at("required").get<bool>()});
            if (f.checks.back().case_name != case_name || f.checks.back().solver != solver)
                throw RecordError("a check of another case or solver");
        }
    } catch (const std::exception& e) {
        throw RecordError(fmt::format("{}: damaged ({}); --overwrite starts the validation again",
                                      file.string(), e.what()));
    }
    return f;
}

void ValidateRecord::save_finished(const std::string& case_name, const std::string& solver,
                                   const Finished& f) {
    json checks = json::array();
    for (const Check& c : f.checks)
        checks.push_back({{"case", c.case_name},
                          {"solver", c.solver},
                          {"quantity", c.quantity},
                          {"deviation", number(c.deviation)},
                          {"tolerance", c.tolerance},
                          {"detail", c.detail},
                          {"required", c.required}});
    const json j = {{"rows", f.rows}, {"checks", checks}};
    io::write_file_atomic(folder_ / (case_name + "." + solver + ".json"),
                          [&](std::ostream& out) { out << j.dump() << "\n"; });
    // Finished: its checkpoint is no longer what a resume starts from.
    std::error_code ec;
    fs::remove(checkpoint(case_name, solver), ec);
}

fs::path ValidateRecord::checkpoint(const std::string& case_name, const std::string& solver) const {
    return folder_ / (case_name + "." + solver + ".checkpoint");
}

void ValidateRecord::clear() {
    std::error_code ec;
    fs::remove_all(folder_, ec);
    if (ec) throw std::runtime_error("cannot remove " + folder_.string() + ": " + ec.message());
}

}  // namespace seiche::app

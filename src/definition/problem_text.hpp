// The wording of a definition's problems, shared by validate() and the checks that live with what
// they check (the bodies' geometry): numbers as given, axes by letter. Not installed.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

namespace seiche::problem_text {

// A number as the user wrote it ("0.1", "1e-06", "inf").
inline std::string num(double v) {
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

template <class... A>
std::string format(const char* fmt, A... a) {
    char buf[512];
    std::snprintf(buf, sizeof buf, fmt, a...);
    return buf;
}

inline constexpr const char* axis_name = "xyz";

// The problem of a name that is a column of a CSV file (bodies.csv, sensors.csv), "" when it is
// fine: a comma, a quote or a line break would split the file's rows.
inline std::string csv_name_problem(const std::string& name, const char* file) {
    for (unsigned char c : name)
        if (c == ',' || c == '"' || c < 0x20 || c == 0x7f)
            return std::string("expected a name without commas, quotes or control characters "
                               "(it is a column of ") + file + "), got \"" + name + "\"";
    return "";
}

}  // namespace seiche::problem_text

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

}  // namespace seiche::problem_text

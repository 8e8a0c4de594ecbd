#pragma once
// Text put into the report's HTML: <, >, & and quotes escaped, so that a disk or player named
// "<script>" in a game file is shown as written and never run.

#include <string>
#include <string_view>

namespace diskref::report {

std::string html_text(std::string_view text);

}  // namespace diskref::report

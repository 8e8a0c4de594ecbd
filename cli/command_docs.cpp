#include "cli/command_docs.h"

#include <algorithm>
#include <vector>

namespace diskref::cli {
namespace {

bool shown(const CLI::Option* o) {
  return !o->get_group().empty();
}

std::vector<const CLI::App*> subcommands_of(const CLI::App& app) {
  std::vector<const CLI::App*> out;
  for (const CLI::App* sub : const_cast<CLI::App&>(app).get_subcommands({})) out.push_back(sub);
  return out;
}

// Text as roff reads it: backslashes and hyphens written as themselves, and a line that would start
// with a control character ('.' or '\'') kept as text.
std::string roff(const std::string& text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

std::string first_sentence(const std::string& description) {
  std::string line = description.substr(0, description.find('\n'));
  const auto colon = line.find(": ");
  // "diskref: the camera referee …" reads as the title itself.
  if (colon != std::string::npos && colon < 20 && line.rfind("diskref", 0) == 0) line = line.substr(colon + 2);
  return line;
}

// Ends with a full stop, so that "See …" after it reads as a sentence.
std::string sentence(std::string text) {
  if (!text.empty() && text.back() != '.' && text.back() != '!' && text.back() != '?') text += '.';
  return text;
}

// "-c, --calib" (bold) and its value's type (italic).
std::string option_heading(const CLI::Option* o) {
  std::string names;
  for (const auto& s : o->get_snames()) names += (names.empty() ? "" : ", ") + std::string("\\fB\\-") + s + "\\fR";
  for (const auto& l : o->get_lnames())
    names += (names.empty() ? "" : ", ") + std::string("\\fB\\-\\-") + roff(l) + "\\fR";
  if (o->get_type_size_max() > 0 && !o->get_type_name().empty()) names += " \\fI" + roff(o->get_type_name()) + "\\fR";
  return names;
}

std::string option_text(const CLI::Option* o) {
  std::string text = o->get_description();
  if (!o->get_default_str().empty()) text += " (default: " + o->get_default_str() + ")";
  if (o->get_required()) text += " (required)";
  if (o->get_items_expected_max() > 1) text += " (may be given more than once)";
  return roff(text);
}

std::string synopsis(const CLI::App& app, const std::string& command) {
  std::string s = ".SY " + roff(command) + "\n";
  bool any_option = false;
  for (const CLI::Option* o : app.get_options(shown))
    if (!o->get_positional()) any_option = true;
  if (any_option) s += "[\\fIOPTIONS\\fR]\n";
  for (const CLI::Option* o : app.get_options(shown))
    if (o->get_positional()) {
      const std::string name = "\\fI" + roff(upper(o->get_name(true))) + "\\fR";
      s += (o->get_required() ? name : "[" + name + "]") + (o->get_items_expected_max() > 1 ? " ...\n" : "\n");
    }
  if (!subcommands_of(app).empty()) s += "\\fISUBCOMMAND\\fR ...\n";
  return s + ".YS\n";
}

void add_pages(const CLI::App& app, const std::string& command, const std::string& page, const ManPageInfo& info,
               std::map<std::string, std::string>& pages) {
  std::string t = ".TH " + upper(page) + " 1 " + info.date + " \"diskref " + info.version + "\" \"diskref manual\"\n";
  t += ".SH NAME\n" + roff(page) + " \\- " + roff(first_sentence(app.get_description())) + "\n";
  t += ".SH SYNOPSIS\n" + synopsis(app, command);
  t += ".SH DESCRIPTION\n" + roff(app.get_description()) + "\n";
  const auto subs = subcommands_of(app);
  if (!subs.empty()) {
    t += ".SH SUBCOMMANDS\n";
    for (const CLI::App* sub : subs)
      t += ".TP\n.B " + roff(sub->get_name()) + "\n" + roff(sentence(first_sentence(sub->get_description()))) +
           " See \\fB" + roff(page + "-" + sub->get_name()) + "\\fR(1).\n";
  }
  std::string positionals, options;
  for (const CLI::Option* o : app.get_options(shown)) {
    if (o->get_positional())
      positionals += ".TP\n\\fI" + roff(upper(o->get_name(true))) + "\\fR\n" + option_text(o) + "\n";
    else
      options += ".TP\n" + option_heading(o) + "\n" + option_text(o) + "\n";
  }
  if (!positionals.empty()) t += ".SH ARGUMENTS\n" + positionals;
  if (!options.empty()) t += ".SH OPTIONS\n" + options;
  if (!app.get_footer().empty()) t += ".SH EXAMPLES\n.nf\n" + roff(app.get_footer()) + "\n.fi\n";
  t += ".SH EXIT STATUS\n0 success; 1 failure while running; 2 bad input (a message on standard error names the "
       "file, the place in it and the problem).\n";
  t += ".SH SEE ALSO\n";
  if (page != "diskref") t += "\\fBdiskref\\fR(1), ";
  t += "the guide and reference in /usr/share/doc/diskref/docs/README.md\n";
  pages[page] = t;
  for (const CLI::App* sub : subs)
    add_pages(*sub, command + " " + sub->get_name(), page + "-" + sub->get_name(), info, pages);
}

// One case branch per command path (" setup kit"): its subcommands, every word that may follow
// there, and the options that take a value.
void add_completion_cases(const CLI::App& app, const std::string& path, std::string& cases) {
  std::string sub_names, option_names, value_names;
  for (const CLI::App* sub : subcommands_of(app)) sub_names += sub->get_name() + " ";
  for (const CLI::Option* o : app.get_options(shown)) {
    if (o->get_positional()) continue;
    std::vector<std::string> names;
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& n : names) {
      option_names += n + " ";
      if (o->get_type_size_max() > 0) value_names += n + " ";
    }
  }
  cases += "    \"" + path + "\") subs=\"" + sub_names + "\" words=\"" + option_names + "\" valued=\" " + value_names +
           "\" ;;\n";
  for (const CLI::App* sub : subcommands_of(app)) add_completion_cases(*sub, path + " " + sub->get_name(), cases);
}

}  // namespace

std::map<std::string, std::string> man_pages(const CLI::App& program, const ManPageInfo& info) {
  std::map<std::string, std::string> pages;
  add_pages(program, "diskref", "diskref", info, pages);
  return pages;
}

std::string bash_completion(const CLI::App& program) {
  std::string cases;
  add_completion_cases(program, "", cases);
  return "# bash completion for diskref. Generated by `diskref --write-bash-completion` from the program's own\n"
         "# command line: do not edit.\n"
         "_diskref_at() {\n"
         "  case \"$1\" in\n" +
         cases +
         "    *) subs=\"\" words=\"\" valued=\" \" ;;\n"
         "  esac\n"
         "}\n"
         "_diskref() {\n"
         "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" path=\"\" subs words valued i\n"
         "  [ \"$COMP_CWORD\" -gt 0 ] && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
         "  # The command path typed so far: each word that names a subcommand where it stands.\n"
         "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
         "    _diskref_at \"$path\"\n"
         "    case \" $subs \" in *\" ${COMP_WORDS[i]} \"*) path=\"$path ${COMP_WORDS[i]}\" ;; esac\n"
         "  done\n"
         "  _diskref_at \"$path\"\n"
         "  # An option's value: a file or folder name.\n"
         "  case \"$valued\" in *\" $prev \"*) COMPREPLY=($(compgen -f -- \"$cur\")); return 0 ;; esac\n"
         "  if [[ \"$cur\" == -* ]]; then\n"
         "    COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
         "  elif [ -n \"$subs\" ]; then\n"
         "    COMPREPLY=($(compgen -W \"$subs\" -- \"$cur\"))\n"
         "  else\n"
         "    COMPREPLY=($(compgen -f -- \"$cur\"))\n"
         "  fi\n"
         "}\n"
         "complete -o filenames -F _diskref diskref\n";
}

}  // namespace diskref::cli

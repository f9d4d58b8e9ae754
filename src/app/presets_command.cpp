#include "app/presets_command.hpp"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "app/exit_codes.hpp"
#include "app/rank_zero.hpp"
#include "io/config/config_error.hpp"
#include "io/config/did_you_mean.hpp"
#include "io/config/presets.hpp"
#include "io/preset_catalog.hpp"
#include "io/text_table.hpp"

namespace rackscale::app {
namespace {

constexpr const char* kPrefix = "rackscale presets: ";
// A source is cut to this many characters in the listing (`presets show` prints it whole).
constexpr std::size_t kListedSourceLength = 60;

std::string shortened(const std::string& text, std::size_t length) {
  if (text.size() <= length) return text;
  const auto space = text.rfind(' ', length);
  return text.substr(0, space == std::string::npos || space == 0 ? length : space) + " ...";
}

}  // namespace

PresetsCommand::PresetsCommand(CLI::App& parent)
    : command_(parent.add_subcommand("presets", "List the hardware and model presets (configs/presets)")),
      show_(command_->add_subcommand("show", "Print one preset with every field resolved")) {
  command_->add_option("--kind", kind_, fmt::format("List one kind: {}", fmt::join(io::preset_kinds(), ", ")))
      ->check(CLI::IsMember(io::preset_kinds()));
  command_->add_flag("--json", json_, "Print the presets as one JSON object instead");
  show_->add_option("name", name_, "Preset name, as listed by `rackscale presets`")->required();
  show_->add_flag("--json", json_, "Print the preset as one JSON object instead");
}

int PresetsCommand::execute(const boost::mpi::communicator& comm) {
  return run_on_rank_zero(comm, kPrefix, [this] {
    try {
      return show_->parsed() ? show() : list();
    } catch (const io::ConfigError& e) {
      // A preset file that does not read: its file:line:column diagnostic.
      std::cerr << kPrefix << e.what() << '\n';
      return kExitBadInput;
    }
  });
}

int PresetsCommand::list() const {
  const std::string directory = io::presets_directory();
  nlohmann::ordered_json all = nlohmann::ordered_json::object();
  for (const auto& kind : io::preset_kinds()) {
    if (!kind_.empty() && kind != kind_) continue;
    using A = io::TextTable::Align;
    io::TextTable table({kind, "key figures", "source"}, {A::left, A::left, A::left});
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (const auto& name : io::preset_names_of(kind, directory)) {
      const io::PresetEntry entry = io::describe_preset(kind, name, directory);
      table.add_row({entry.name, entry.summary, shortened(entry.source, kListedSourceLength)});
      entries.push_back(io::preset_json(entry));
    }
    if (json_)
      all[kind] = std::move(entries);
    else
      std::cout << table.render() << '\n';
  }
  if (json_)
    std::cout << all.dump() << '\n';
  else
    std::cout << fmt::format("presets directory: {} (set RACKSCALE_PRESETS to use another)\n"
                             "`rackscale presets show NAME` prints every field of one.\n",
                             directory);
  return kExitOk;
}

int PresetsCommand::show() const {
  const std::string directory = io::presets_directory();
  std::vector<std::string> every_name;
  bool found = false;
  for (const auto& kind : io::preset_kinds()) {
    const auto names = io::preset_names_of(kind, directory);
    every_name.insert(every_name.end(), names.begin(), names.end());
    if (std::find(names.begin(), names.end(), name_) == names.end()) continue;
    found = true;
    const io::PresetEntry entry = io::describe_preset(kind, name_, directory);
    if (json_) {
      std::cout << io::preset_json(entry).dump() << '\n';
      continue;
    }
    std::cout << fmt::format("{} ({}, {}/{}/{}.yaml)\n", entry.name, io::singular_kind(kind),
                             directory, kind, entry.name);
    for (const auto& f : entry.fields) std::cout << fmt::format("  {:<22} {}\n", f.key, f.text);
    std::cout << fmt::format("  {:<22} {}\n", "source", entry.source);
  }
  if (found) return kExitOk;
  std::string message = fmt::format("show: expected a preset name (`rackscale presets` lists them), found '{}'", name_);
  if (const auto guess = io::closest_match(name_, every_name)) message += fmt::format("; did you mean '{}'?", *guess);
  std::cerr << kPrefix << message << '\n';
  return kExitBadInput;
}

}  // namespace rackscale::app

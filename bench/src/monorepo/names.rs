//! Names for generated code: package domains, entities (unique across the whole tree, so that
//! barrels and importers never see two exports of one name) and their case forms.

/// Business domains, the first part of a library package name (`billing-12`).
pub(crate) const DOMAINS: [&str; 40] = [
    "billing",
    "catalog",
    "identity",
    "inventory",
    "shipping",
    "payments",
    "pricing",
    "search",
    "reviews",
    "messaging",
    "scheduling",
    "reporting",
    "analytics",
    "support",
    "loyalty",
    "fleet",
    "warehouse",
    "procurement",
    "staffing",
    "payroll",
    "crm",
    "marketing",
    "content",
    "media",
    "compliance",
    "audit",
    "alerts",
    "subscriptions",
    "checkout",
    "fulfillment",
    "returns",
    "tax",
    "ledger",
    "forecasting",
    "routing",
    "booking",
    "events",
    "learning",
    "maps",
    "insights",
];

/// Kinds of application (`web-0`, `admin-1`).
pub(crate) const APP_KINDS: [&str; 6] = ["web", "admin", "portal", "console", "studio", "kiosk"];

/// Entity nouns. None is a suffix the generator appends (`Service`, `Status`, `Id`, `Input`,
/// `Event`, `Policy`, `Row`, `Page`, …) or a name the hub packages export.
const NOUNS: [&str; 64] = [
    "Order",
    "Invoice",
    "Customer",
    "Product",
    "Cart",
    "Payment",
    "Shipment",
    "Account",
    "Session",
    "Report",
    "Ticket",
    "Review",
    "Coupon",
    "Warehouse",
    "Supplier",
    "Employee",
    "Project",
    "Task",
    "Comment",
    "Notice",
    "Subscription",
    "Plan",
    "Refund",
    "Parcel",
    "Route",
    "Vehicle",
    "Driver",
    "Booking",
    "Venue",
    "Course",
    "Lesson",
    "Article",
    "Asset",
    "Campaign",
    "Lead",
    "Contact",
    "Quote",
    "Contract",
    "Budget",
    "Expense",
    "Journal",
    "Forecast",
    "Metric",
    "Incident",
    "Schedule",
    "Shift",
    "Team",
    "Member",
    "Device",
    "Sensor",
    "Reading",
    "Batch",
    "Lot",
    "Vendor",
    "Claim",
    "Survey",
    "Answer",
    "Listing",
    "Offer",
    "Bid",
    "Auction",
    "Tenant",
    "Lease",
    "Visit",
];

/// Qualifiers put before a noun to make entity names unique (`RetailOrder`).
const QUALIFIERS: [&str; 48] = [
    "Retail", "Partner", "Fleet", "Cloud", "Field", "Local", "Global", "Trade", "Market", "Studio",
    "Harbor", "Metro", "Prime", "Core", "North", "South", "Rapid", "Smart", "Open", "Civic",
    "Urban", "Rural", "Solar", "Coastal", "Alpine", "Delta", "Vertex", "Summit", "Atlas", "Nova",
    "Orbit", "Pilot", "Relay", "Signal", "Anchor", "Beacon", "Bridge", "Canyon", "Cedar", "Crest",
    "Ember", "Forge", "Grove", "Haven", "Iris", "Juniper", "Keystone", "Lumen",
];

/// The case forms of one name.
#[derive(Debug, Clone)]
pub(crate) struct Names {
    /// `RetailOrder`.
    pub(crate) pascal: String,
    /// `retailOrder`.
    pub(crate) camel: String,
    /// `retail-order`.
    pub(crate) kebab: String,
    /// `retail order`, for prose.
    pub(crate) words: String,
}

impl Names {
    /// The forms of a PascalCase name (digits stay with the word before them).
    pub(crate) fn from_pascal(pascal: &str) -> Names {
        let mut kebab = String::with_capacity(pascal.len() + 4);
        for (i, c) in pascal.chars().enumerate() {
            if c.is_ascii_uppercase() {
                if i > 0 {
                    kebab.push('-');
                }
                kebab.push(c.to_ascii_lowercase());
            } else {
                kebab.push(c);
            }
        }
        let mut camel = pascal.to_owned();
        if let Some(first) = camel.get_mut(0..1) {
            first.make_ascii_lowercase();
        }
        Names {
            pascal: pascal.to_owned(),
            camel,
            words: kebab.replace('-', " "),
            kebab,
        }
    }
}

/// The name of the `index`-th entity of the tree: a qualifier and a noun, with a number once
/// all pairs are used (`RetailOrder`, …, `RetailOrder2`).
pub(crate) fn entity(index: usize) -> Names {
    let noun = NOUNS[index % NOUNS.len()];
    let qualifier = QUALIFIERS[(index / NOUNS.len()) % QUALIFIERS.len()];
    let round = index / (NOUNS.len() * QUALIFIERS.len());
    let pascal = if round == 0 {
        format!("{qualifier}{noun}")
    } else {
        format!("{qualifier}{noun}{}", round + 1)
    };
    Names::from_pascal(&pascal)
}

/// `billing-12` → `Billing12`.
pub(crate) fn pascal_of_kebab(kebab: &str) -> String {
    kebab
        .split('-')
        .map(|part| {
            let mut chars = part.chars();
            match chars.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + chars.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_names_are_unique_and_cased() {
        let count = NOUNS.len() * QUALIFIERS.len() * 2 + 5;
        let mut seen = std::collections::HashSet::new();
        for i in 0..count {
            assert!(seen.insert(entity(i).pascal), "entity {i} repeats a name");
        }
        let names = entity(NOUNS.len() * QUALIFIERS.len() + 1);
        assert_eq!(names.pascal, "RetailInvoice2");
        assert_eq!(names.camel, "retailInvoice2");
        assert_eq!(names.kebab, "retail-invoice2");
        assert_eq!(pascal_of_kebab("billing-12"), "Billing12");
    }
}
